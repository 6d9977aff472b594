//! The templates' shape (issue 26): what kinds share lives in `templates/common/`, and nothing else is
//! shared. A template may import, include or read a file of its own folder or of `common/`, never one of
//! another kind's folder: typst's `import`, `include` and file-reading calls (`read`, `json`, `image`, …),
//! and minijinja's `import`, `from`, `include` and `extends`. The font fallback list and the ink are
//! defined once, in `templates/common/style.typ` (tests/fonts.rs holds the list equal to the fonts the
//! binary embeds).
//!
//! The typst side is read with typst's own parser, so comments, strings and markup never pass for code; the
//! Markdown side with a scanner of minijinja's tags. Each rule is also tried on small sources that break it.

use std::path::Path;

use typst::syntax::ast::{self, Arg, AstNode, Expr};
use typst::syntax::{SyntaxNode, parse};

/// The folder of shared templates.
const COMMON: &str = "common";

/// The names a template outside `common/` must not define.
const SHARED_NAMES: [&str; 2] = ["fallbacks", "ink"];

/// typst functions that load a file by path.
const READERS: [&str; 9] = [
    "read", "json", "toml", "yaml", "csv", "xml", "cbor", "image", "plugin",
];

/// Every `.typ` and `.j2` file under `templates/`, as (path relative to `templates/`, text), in path order.
fn template_files() -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|e| e == "typ" || e == "j2") {
                let rel = p.strip_prefix(root).unwrap();
                let rel = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out
}

/// The folder a template belongs to: the first part of its path.
fn folder_of(path: &str) -> &str {
    path.split_once('/').map_or("", |(folder, _)| folder)
}

/// 1-based line of byte `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// Where a path used by typst file `from` lands, relative to `templates/` (typst resolves a relative path
/// against the file's folder and an absolute one against the root); none if it climbs out of the root.
fn resolve_typst(from: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = if path.starts_with('/') {
        Vec::new()
    } else {
        from.split('/').collect::<Vec<_>>()[..from.matches('/').count()].to_vec()
    };
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// What a template of folder `own` may use.
fn rule(own: &str) -> String {
    if own == COMMON {
        format!("(a template of {COMMON}/ may use only {COMMON}/)")
    } else {
        format!("(a template may use only its own folder, {own}/, and {COMMON}/)")
    }
}

/// The fault, if any, of template `from` using the file `target` (relative to `templates/`, none when it
/// lies outside them) through `how` (`imports`, `includes`, `reads`, `extends`) as `written`.
fn check_target(
    from: &str,
    line: usize,
    how: &str,
    written: &str,
    target: Option<&str>,
) -> Option<String> {
    let own = folder_of(from);
    let at = format!("templates/{from}:{line}: {how} {written:?}");
    match target {
        None => Some(format!("{at}, outside templates/ {}", rule(own))),
        Some(t) if !t.contains('/') => Some(format!("{at}, which names no folder {}", rule(own))),
        Some(t) if folder_of(t) != own && folder_of(t) != COMMON => {
            Some(format!("{at}, a file of {}/ {}", folder_of(t), rule(own)))
        }
        Some(_) => None,
    }
}

/// Every node of a syntax tree with its byte offset.
fn nodes(node: &SyntaxNode, at: usize, out: &mut Vec<(SyntaxNode, usize)>) {
    out.push((node.clone(), at));
    let mut pos = at;
    for child in node.children() {
        nodes(child, pos, out);
        pos += child.len();
    }
}

/// The faults of typst template `path`: files of other kinds' folders it imports, includes or reads, and
/// definitions of the shared names outside `common/`.
fn typst_faults(path: &str, text: &str) -> Vec<String> {
    let root = parse(text);
    let (errors, _) = root.errors_and_warnings();
    if let Some(e) = errors.first() {
        return vec![format!("templates/{path}: does not parse: {}", e.message)];
    }
    let mut all = Vec::new();
    nodes(&root, 0, &mut all);
    let mut faults = Vec::new();
    for (node, at) in &all {
        let line = line_of(text, *at);
        let mut uses = |how: &str, source: Option<Expr>| {
            match source {
            Some(Expr::Str(s)) => {
                let written = s.get();
                faults.extend(check_target(path, line, how, &written, resolve_typst(path, &written).as_deref()));
            }
            Some(other) => faults.push(format!(
                "templates/{path}:{line}: {how} a path given as `{}`, not as a string, so no one can \
                 tell which folder it reads",
                other.to_untyped().full_text()
            )),
            None => {}
        }
        };
        if let Some(import) = node.cast::<ast::ModuleImport>() {
            uses("imports", Some(import.source()));
        } else if let Some(include) = node.cast::<ast::ModuleInclude>() {
            uses("includes", Some(include.source()));
        } else if let Some(call) = node.cast::<ast::FuncCall>() {
            if let Expr::Ident(f) = call.callee()
                && READERS.contains(&f.as_str())
            {
                let first = call.args().items().find_map(|a| match a {
                    Arg::Pos(e) => Some(e),
                    _ => None,
                });
                uses("reads", first);
            }
        } else if let Some(binding) = node.cast::<ast::LetBinding>() {
            for name in binding.kind().bindings() {
                if SHARED_NAMES.contains(&name.as_str()) && folder_of(path) != COMMON {
                    faults.push(format!(
                        "templates/{path}:{line}: defines `{}`, which is defined once, in \
                         templates/{COMMON}/style.typ",
                        name.as_str()
                    ));
                }
            }
        }
    }
    faults
}

/// Where each of the shared names is defined among `files`, as (path, name), in path order.
fn shared_definitions(files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".typ")) {
        let mut all = Vec::new();
        nodes(&parse(text), 0, &mut all);
        for (node, _) in &all {
            if let Some(binding) = node.cast::<ast::LetBinding>() {
                for name in binding.kind().bindings() {
                    if SHARED_NAMES.contains(&name.as_str()) {
                        out.push((path.clone(), name.as_str().to_owned()));
                    }
                }
            }
        }
    }
    out
}

/// The string literals of a minijinja expression (single or double quoted), with their positions.
fn literals(expr: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut chars = expr.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '"' || c == '\'' {
            let mut s = String::new();
            while let Some((_, d)) = chars.next() {
                match d {
                    '\\' => {
                        if let Some((_, e)) = chars.next() {
                            s.push(e);
                        }
                    }
                    d if d == c => break,
                    d => s.push(d),
                }
            }
            out.push((i, s));
        }
    }
    out
}

/// The end of the minijinja tag or expression that starts at `from` and closes with `close`: the byte after
/// `close`, looking past quoted strings; none if it never closes.
fn tag_end(code: &str, from: usize, close: &str) -> Option<usize> {
    let bytes = code.as_bytes();
    let mut i = from;
    let mut quote = None;
    while i < bytes.len() {
        match (quote, bytes[i]) {
            (Some(_), b'\\') => i += 1,
            (Some(q), c) if c == q => quote = None,
            (None, b'"' | b'\'') => quote = Some(bytes[i]),
            (None, _) if bytes[i..].starts_with(close.as_bytes()) => return Some(i + close.len()),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The faults of minijinja template `path`: templates of other kinds' folders it imports, includes or
/// extends. Template names are relative to `templates/`; a name built from pieces is judged by the literal
/// it starts with, which must name the folder.
fn jinja_faults(path: &str, text: &str) -> Vec<String> {
    let mut faults = Vec::new();
    let mut from = 0;
    // The next comment, expression or tag.
    while let Some(open) = ["{#", "{{", "{%"]
        .iter()
        .filter_map(|o| text[from..].find(o).map(|i| from + i))
        .min()
    {
        let line = line_of(text, open);
        let close = match &text[open..open + 2] {
            "{#" => "#}",
            "{{" => "}}",
            _ => "%}",
        };
        let end = if close == "#}" {
            text[open..].find(close).map(|e| open + e + 2)
        } else {
            tag_end(text, open + 2, close)
        };
        let Some(end) = end else {
            faults.push(format!("templates/{path}:{line}: a tag that never closes"));
            break;
        };
        from = end;
        if close != "%}" {
            continue;
        }
        let tag = text[open + 2..end - 2]
            .trim_matches(|c: char| c == '-' || c == '+' || c.is_whitespace());
        let (word, expr) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        if word == "raw" {
            // Nothing up to `endraw` is a tag.
            match text[from..].find("endraw") {
                Some(e) => from = tag_end(text, from + e, "%}").unwrap_or(text.len()),
                None => break,
            }
            continue;
        }
        let how = match word {
            "import" | "from" => "imports",
            "include" => "includes",
            "extends" => "extends",
            _ => continue,
        };
        // Cut what follows the name: `as x`, `import a, b`, `ignore missing`, `with context`.
        let expr = expr.trim();
        let expr = [" as ", " import ", " ignore ", " with ", " without "]
            .iter()
            .filter_map(|k| expr.find(k))
            .min()
            .map_or(expr, |k| &expr[..k])
            .trim();
        let names: Vec<String> = if expr.starts_with('[') {
            literals(expr).into_iter().map(|(_, s)| s).collect()
        } else {
            match literals(expr).into_iter().next() {
                Some((0, s)) => vec![s],
                _ => {
                    faults.push(format!(
                        "templates/{path}:{line}: {how} a template named by `{expr}`, not by a string, so \
                         no one can tell which folder it reads"
                    ));
                    continue;
                }
            }
        };
        for name in names {
            let inside = !name.starts_with('/') && !name.split('/').any(|p| p == "..");
            faults.extend(check_target(
                path,
                line,
                how,
                &name,
                inside.then_some(name.as_str()),
            ));
        }
    }
    faults
}

fn faults(path: &str, text: &str) -> Vec<String> {
    if path.ends_with(".typ") {
        typst_faults(path, text)
    } else {
        jinja_faults(path, text)
    }
}

// ---------- the templates ----------

#[test]
fn no_template_uses_a_file_of_another_kinds_folder() {
    let files = template_files();
    // Every kind's templates are here, the shared ones among them.
    assert!(files.len() >= 60, "only {} templates found", files.len());
    for want in [
        "common/style.typ",
        "common/md.j2",
        "case/case.typ",
        "srd/chapter.md.j2",
    ] {
        assert!(files.iter().any(|(p, _)| p == want), "{want} not found");
    }
    let mut all = Vec::new();
    for (path, text) in &files {
        all.extend(faults(path, text));
    }
    assert!(all.is_empty(), "{all:#?}");

    // The rule is not empty: kinds do use common/, from both template languages.
    let uses_common = |ext: &str, needle: &str| {
        files
            .iter()
            .filter(|(p, t)| p.ends_with(ext) && !p.starts_with("common/") && t.contains(needle))
            .count()
    };
    assert!(uses_common(".typ", "\"../common/") >= 20);
    assert!(uses_common(".j2", "\"common/") >= 10);
}

#[test]
fn the_fallbacks_and_the_ink_are_defined_once_in_common_style() {
    let files = template_files();
    assert_eq!(
        shared_definitions(&files),
        vec![
            ("common/style.typ".to_owned(), "fallbacks".to_owned()),
            ("common/style.typ".to_owned(), "ink".to_owned()),
        ]
    );
}

// ---------- the rules, on sources that break them ----------

#[test]
fn a_typst_import_of_another_kinds_folder_is_named_with_its_line() {
    let src = "// Cards.\n#import \"../common/kit.typ\": sheet-footer\n#import \"rbf-lib.typ\": *\n\
               #import \"../kit-bbb/kit-lib.typ\": kit-cards\n";
    assert_eq!(
        faults("kit-rbf/cards.typ", src),
        vec![
            "templates/kit-rbf/cards.typ:4: imports \"../kit-bbb/kit-lib.typ\", a file of kit-bbb/ (a \
             template may use only its own folder, kit-rbf/, and common/)"
        ]
    );
}

#[test]
fn typst_includes_reads_and_imports_in_code_are_checked_and_comments_are_not() {
    let src = "#let f() = { import \"/srd/srd-lib.typ\": srd; srd }\n\
               #include \"../case/case.typ\"\n\
               #image(\"../srd/seal.png\", width: 1cm)\n\
               #let data = json(\"tables.json\")\n\
               // #import \"../sheet/sheet-lib.typ\": *\n\
               /* #include \"../npc/cards.typ\" */\n\
               #text(\"#import \\\"../npc/cards.typ\\\"\")\n\
               #read(\"../../Cargo.toml\")\n\
               #import sys.inputs.lib: x\n";
    assert_eq!(
        faults("kit-coc/track.typ", src),
        vec![
            "templates/kit-coc/track.typ:1: imports \"/srd/srd-lib.typ\", a file of srd/ (a template may \
             use only its own folder, kit-coc/, and common/)",
            "templates/kit-coc/track.typ:2: includes \"../case/case.typ\", a file of case/ (a template may \
             use only its own folder, kit-coc/, and common/)",
            "templates/kit-coc/track.typ:3: reads \"../srd/seal.png\", a file of srd/ (a template may use \
             only its own folder, kit-coc/, and common/)",
            "templates/kit-coc/track.typ:8: reads \"../../Cargo.toml\", outside templates/ (a template may \
             use only its own folder, kit-coc/, and common/)",
            "templates/kit-coc/track.typ:9: imports a path given as `sys.inputs.lib`, not as a string, so \
             no one can tell which folder it reads",
        ]
    );
}

#[test]
fn common_may_use_only_common() {
    assert_eq!(
        faults(
            "common/kit.typ",
            "#import \"style.typ\": *\n#import \"cards.typ\": card\n"
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        faults(
            "common/kit.typ",
            "#import \"../cards/cards-lib.typ\": card\n"
        ),
        vec![
            "templates/common/kit.typ:1: imports \"../cards/cards-lib.typ\", a file of cards/ (a template \
             of common/ may use only common/)"
        ]
    );
}

#[test]
fn a_template_outside_common_that_defines_the_ink_or_the_fallbacks_is_named() {
    let src = "#let ink = rgb(\"#1b1b1b\")\n\
               #let ink-soft = ink.lighten(20%)\n\
               #let faces(ink: black) = ink\n\
               #let f() = { let fallbacks = (\"Noto Serif\",); fallbacks }\n\
               #let (a, ink) = (1, 2)\n\
               // #let fallbacks = ()\n";
    assert_eq!(
        faults("kit-bbb/kit.typ", src),
        vec![
            "templates/kit-bbb/kit.typ:1: defines `ink`, which is defined once, in templates/common/style.typ",
            "templates/kit-bbb/kit.typ:4: defines `fallbacks`, which is defined once, in \
             templates/common/style.typ",
            "templates/kit-bbb/kit.typ:5: defines `ink`, which is defined once, in templates/common/style.typ",
        ]
    );
    assert_eq!(faults("common/style.typ", src), Vec::<String>::new());
    let files = vec![
        (
            "common/style.typ".to_owned(),
            "#let ink = black\n".to_owned(),
        ),
        (
            "srd/srd-lib.typ".to_owned(),
            "#let fallbacks = ()\n#let ink = black\n".to_owned(),
        ),
    ];
    assert_eq!(
        shared_definitions(&files),
        vec![
            ("common/style.typ".to_owned(), "ink".to_owned()),
            ("srd/srd-lib.typ".to_owned(), "fallbacks".to_owned()),
            ("srd/srd-lib.typ".to_owned(), "ink".to_owned()),
        ]
    );
}

#[test]
fn minijinja_imports_includes_and_extends_of_another_kinds_folder_are_named() {
    let src = "{#- A kit's cards. {% include \"srd/x.md.j2\" %} -#}\n\
               {% import \"common/md.j2\" as md %}\n\
               {% include \"cards/cards.md.j2\" %}\n\
               {%- from 'kit-bbb/about.md.j2' import about -%}\n\
               {% include \"kit-urban-world/\" ~ part ~ \".md.j2\" ignore missing %}\n\
               {% include [\"kit-urban-world/a.md.j2\", \"srd/b.md.j2\"] %}\n\
               {% extends \"../case/base.md.j2\" %}\n\
               {% include name %}\n\
               {% include \"about.md.j2\" %}\n\
               {{ \"{% include 'npc/cards.md.j2' %}\" }}\n\
               {% raw %}{% include \"srd/c.md.j2\" %}{% endraw %}\n\
               {% include 'npc/cards.md.j2' %}\n";
    let rule = "(a template may use only its own folder, kit-urban-world/, and common/)";
    assert_eq!(
        faults("kit-urban-world/cards.md.j2", src),
        vec![
            format!("templates/kit-urban-world/cards.md.j2:3: includes \"cards/cards.md.j2\", a file of cards/ {rule}"),
            format!("templates/kit-urban-world/cards.md.j2:4: imports \"kit-bbb/about.md.j2\", a file of kit-bbb/ {rule}"),
            format!("templates/kit-urban-world/cards.md.j2:6: includes \"srd/b.md.j2\", a file of srd/ {rule}"),
            format!("templates/kit-urban-world/cards.md.j2:7: extends \"../case/base.md.j2\", outside templates/ {rule}"),
            "templates/kit-urban-world/cards.md.j2:8: includes a template named by `name`, not by a \
             string, so no one can tell which folder it reads"
                .to_owned(),
            format!("templates/kit-urban-world/cards.md.j2:9: includes \"about.md.j2\", which names no folder {rule}"),
            format!("templates/kit-urban-world/cards.md.j2:12: includes \"npc/cards.md.j2\", a file of npc/ {rule}"),
        ]
    );
}
