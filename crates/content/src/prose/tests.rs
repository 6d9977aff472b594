//! Tests of the prose parser: block trees, directives, and offsets mapped back to the source.
use super::*;

#[test]
fn directives_place_and_mention() {
    let p = parse(
        "Roll on the {table:bbb.x} table.\n\n{table:bbb.x}\n\n{npcs}\n\nSee [Breaks](breaks.md#from-legwork) and {tabel:oops}.\n",
        "intro",
    );
    assert_eq!(
        p.blocks[0],
        Block::Para {
            content: vec![
                Inline::Text {
                    text: "Roll on the ".into()
                },
                Inline::Ref {
                    of: RefKind::Table,
                    id: "bbb.x".into()
                },
                Inline::Text {
                    text: " table.".into()
                }
            ]
        }
    );
    assert_eq!(
        p.blocks[1],
        Block::Place {
            of: RefKind::Table,
            id: "bbb.x".into()
        }
    );
    assert_eq!(
        p.blocks[2],
        Block::Place {
            of: RefKind::Npcs,
            id: String::new()
        }
    );
    let placed: Vec<bool> = p
        .found
        .iter()
        .filter_map(|f| match f {
            Found::Directive { placed, .. } => Some(*placed),
            _ => None,
        })
        .collect();
    assert_eq!(placed, [false, true, true]);
    assert!(p.found.contains(&Found::Link {
        chapter: "breaks".into(),
        anchor: Some("from-legwork".into()),
        at: 61
    }));
    assert!(
        p.found
            .iter()
            .any(|f| matches!(f, Found::BadDirective { text, .. } if text == "{tabel:oops}"))
    );
    match &p.found[0] {
        Found::Directive { at, .. } => assert_eq!(*at, 12),
        f => panic!("{f:?}"),
    }
}

#[test]
fn offsets_point_at_the_source_after_smart_punctuation() {
    // Quotes, dashes, an ellipsis, an escape and an entity all change the text's length.
    let body = "She said \"don't\" -- twice... {table:x.a} 'q' --- \\* &amp; {tabel:b} [\"l\"](two.md#h) {npcs}\n\n- \"i\" {deck:x.d}\n";
    let p = parse(body, "one");
    let mut seen = 0;
    for f in &p.found {
        let (at, want) = match f {
            Found::Directive { at, of, .. } => (
                *at,
                match of {
                    RefKind::Table => "{table:x.a}",
                    RefKind::Deck => "{deck:x.d}",
                    RefKind::Npcs => "{npcs}",
                    RefKind::Lookup => "{lookup:",
                },
            ),
            Found::BadDirective { at, text } => {
                assert_eq!(text, "{tabel:b}");
                (*at, "{tabel:b}")
            }
            Found::Link { at, .. } => (*at, "[\"l\"]"),
            Found::Html { .. } => panic!("no HTML here: {f:?}"),
        };
        assert!(
            body[at..].starts_with(want),
            "{f:?} points at {:?}",
            &body[at..]
        );
        seen += 1;
    }
    assert_eq!(seen, 5);
}

#[test]
fn loose_and_nested_list_items_keep_every_block() {
    let p = parse("- one\n  - inner\n- two\n\n  more\n\n  {table:x}\n", "c");
    let Block::List { items, .. } = &p.blocks[0] else {
        panic!("{:?}", p.blocks)
    };
    let kinds: Vec<Vec<&str>> = items
        .iter()
        .map(|it| {
            it.iter()
                .map(|b| match b {
                    Block::Para { .. } => "para",
                    Block::List { .. } => "list",
                    Block::Place { .. } => "place",
                    _ => "other",
                })
                .collect()
        })
        .collect();
    assert_eq!(kinds, [vec!["para", "list"], vec!["para", "para", "place"]]);
}

#[test]
fn underscores_in_ids_survive_and_headings_get_anchors() {
    let p = parse(
        "## Time: elapsed, since!\n\n{table:bbb.homicide.time_elapsed}\n\n- one\n- two *b*\n",
        "c",
    );
    assert_eq!(p.anchors, ["time-elapsed-since"]);
    assert_eq!(
        p.blocks[1],
        Block::Place {
            of: RefKind::Table,
            id: "bbb.homicide.time_elapsed".into()
        }
    );
    match &p.blocks[2] {
        Block::List {
            ordered: false,
            items,
            ..
        } => assert_eq!(items.len(), 2),
        b => panic!("{b:?}"),
    }
}

#[test]
fn pipe_tables_become_grids() {
    let p = parse("| a | b |\n|---|---|\n| 1 | 2 |\n", "c");
    match &p.blocks[0] {
        Block::Grid { header, rows } => {
            assert_eq!(header.len(), 2);
            assert_eq!(
                rows,
                &vec![vec![
                    vec![Inline::Text { text: "1".into() }],
                    vec![Inline::Text { text: "2".into() }]
                ]]
            );
        }
        b => panic!("{b:?}"),
    }
}

#[test]
fn raw_html_is_found_once_per_block_and_comments_are_not() {
    let body = "Hi <b>there</b>.\n\n<div>\nblock\n</div>\n\n<!-- a note\nover lines -->\n\n\\<i> is text\n";
    let p = parse(body, "one");
    let html: Vec<(String, usize)> = p
        .found
        .iter()
        .filter_map(|f| match f {
            Found::Html { text, at } => Some((text.clone(), *at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        html,
        vec![
            ("<b>".to_owned(), 3),
            ("</b>".to_owned(), 11),
            ("<div>".to_owned(), 18)
        ]
    );
}

/// Nesting counts block quotes, lists, emphasis and links open at once, and marks where the first one
/// past the limit opens.
#[test]
fn nesting_counts_every_container_and_marks_the_first_too_deep() {
    let flat = parse("Plain text, *one* and **two**.\n", "c");
    assert_eq!(flat.nesting.depth, 1);
    assert_eq!(flat.nesting.too_deep_at, None);
    let none = parse("Plain text.\n", "c");
    assert_eq!(none.nesting, Nesting::default());
    // A quote holding a list whose item holds strong emphasis around a link: four levels.
    let mixed = parse("> - **see [here](https://e.com)**\n", "c");
    assert_eq!(mixed.nesting.depth, 4);
    assert_eq!(mixed.nesting.too_deep_at, None);
    // Exactly at the limit: accepted.
    let at = format!("{}x\n", "> ".repeat(MAX_NESTING));
    assert_eq!(parse(&at, "c").nesting.depth, MAX_NESTING);
    assert_eq!(parse(&at, "c").nesting.too_deep_at, None);
    // One past it: the first quote past the limit opens at its `>`, on the first line after a heading.
    let past = format!("# T\n\n{}x\n", "> ".repeat(MAX_NESTING + 1));
    let p = parse(&past, "c");
    assert_eq!(p.nesting.depth, MAX_NESTING + 1);
    assert_eq!(p.nesting.too_deep_at, Some(5 + 2 * MAX_NESTING));
    // Lists nest one level per list (an item is not a level of its own).
    let lists: String = (0..MAX_NESTING + 3)
        .map(|i| format!("{}- l{i}\n", "  ".repeat(i)))
        .collect();
    let p = parse(&lists, "c");
    assert_eq!(p.nesting.depth, MAX_NESTING + 3);
    let line = MAX_NESTING; // 0-based line of the 21st list
    let offset: usize = lists.lines().take(line).map(|l| l.len() + 1).sum::<usize>() + 2 * line;
    assert_eq!(p.nesting.too_deep_at, Some(offset));
    // Levels close again: two quotes of depth 2 side by side are 2 deep, not 4.
    let side = parse("> > a\n\nb\n\n> > c\n", "c");
    assert_eq!(side.nesting.depth, 2);
}
