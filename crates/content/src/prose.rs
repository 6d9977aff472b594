//! Prose: a chapter's Markdown in (CommonMark + pipe tables, through pulldown-cmark), a tree of blocks and
//! inlines out, with `{table:ID}` / `{lookup:ID}` / `{deck:ID}` / `{npcs}` directives and chapter links
//! picked out (and their byte offsets kept for diagnostics). The tree is data: renderers place it, they
//! never turn it into typst source.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde::Serialize;

/// What a directive names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RefKind {
    Table,
    Lookup,
    Deck,
    Npcs,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Inline {
    Text {
        text: String,
    },
    Strong {
        content: Vec<Inline>,
    },
    Emph {
        content: Vec<Inline>,
    },
    Code {
        text: String,
    },
    /// A link to another chapter (and heading) of the same book.
    Link {
        chapter: String,
        anchor: Option<String>,
        content: Vec<Inline>,
    },
    /// A link outside the book.
    Url {
        url: String,
        content: Vec<Inline>,
    },
    /// An inline mention of a table, lookup or deck.
    Ref {
        of: RefKind,
        id: String,
    },
    Break,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Block {
    Heading {
        level: u8,
        anchor: String,
        content: Vec<Inline>,
    },
    Para {
        content: Vec<Inline>,
    },
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
    },
    Quote {
        blocks: Vec<Block>,
    },
    /// A placed table, lookup, deck or the stock NPCs.
    Place {
        of: RefKind,
        id: String,
    },
    Grid {
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
    Code {
        text: String,
    },
}

/// A directive or link found in the text, with its byte offset in the chapter body.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    Directive {
        of: RefKind,
        id: String,
        placed: bool,
        at: usize,
    },
    /// A directive-like `{…}` that names nothing known, e.g. `{tabel:x}`.
    BadDirective { text: String, at: usize },
    Link {
        chapter: String,
        anchor: Option<String>,
        at: usize,
    },
    /// Raw HTML (a tag, not a comment): its first line, at its byte offset. Every output drops it from
    /// the tree, and the checker refuses it, so no output shows what another hides.
    Html { text: String, at: usize },
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Parsed {
    pub blocks: Vec<Block>,
    pub found: Vec<Found>,
    /// Anchors of the chapter's headings, in order.
    pub anchors: Vec<String>,
    /// How deep the chapter nests (see [`MAX_NESTING`]) and, when that is past the limit, where.
    pub nesting: Nesting,
}

/// How many block quotes, lists, emphases and links a chapter may nest one inside another, counted
/// together: a block quote inside a list item inside a block quote is three levels, `**a *b* a**` two.
///
/// The outputs set deeper nesting only so far, and less far when they are mixed or when something
/// is placed at the bottom (measured with the SRD's templates, each output on its own): the PDF sets
/// 31 nested block quotes or lists alone but 26 with a table placed inside the innermost, and 64
/// nested emphases; the Markdown sets 35 block quotes, 33 lists, 35 emphases, but 30 lists with three
/// emphases inside. Beyond that the typesetter or the template engine stops ("maximum show rule depth
/// exceeded"). Long before those limits, memory runs out: a chapter of 56 shapes each at most 20 deep
/// (quotes, lists, a table placed at the bottom, breaking across pages) made the SRD's PDF take more
/// than 23 GB (killed), while one such shape alone took 0.5 GB; typst lays a nested block out again
/// for every region it breaks into. 10 keeps every output to ordinary memory, and no real chapter
/// comes near it (the built-in SRD nests at most 3 deep).
pub const MAX_NESTING: usize = 10;

/// The deepest nesting of a chapter's containers, and where the first one past [`MAX_NESTING`] opens.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Nesting {
    /// The most containers open at once anywhere in the chapter.
    pub depth: usize,
    /// The byte offset (in the chapter body) where the first container past the limit opens.
    pub too_deep_at: Option<usize>,
}

/// The anchor of a heading: lower-case, letters and digits kept, spaces and hyphens to `-`, the rest dropped.
pub fn anchor(text: &str) -> String {
    text.trim()
        .chars()
        .filter_map(|c| match c {
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            ' ' | '-' => Some('-'),
            '_' => Some('_'),
            _ => None,
        })
        .collect()
}

/// Plain text of inlines (for anchors and titles).
pub fn plain(inlines: &[Inline]) -> String {
    inlines
        .iter()
        .map(|i| match i {
            Inline::Text { text } | Inline::Code { text } => text.clone(),
            Inline::Strong { content }
            | Inline::Emph { content }
            | Inline::Link { content, .. }
            | Inline::Url { content, .. } => plain(content),
            Inline::Ref { id, .. } => id.clone(),
            Inline::Break => " ".to_owned(),
        })
        .collect()
}

/// Where a run of text came from: the run starts at byte `at` of the collected text and was produced from
/// `src` in the chapter body. Smart punctuation, escapes and entities make the two differ in length, so
/// offsets into the collected text are mapped back through these, never added to one base.
#[derive(Debug, Clone)]
struct Run {
    at: usize,
    len: usize,
    src: std::ops::Range<usize>,
    /// The produced text is the tail of the source slice.
    text_is_suffix: bool,
}

/// The chapter-body offset of byte `pos` of the collected text.
fn source_offset(runs: &[Run], body: &str, pos: usize) -> usize {
    let Some(r) = runs
        .iter()
        .rev()
        .find(|r| r.at <= pos)
        .or_else(|| runs.first())
    else {
        return pos;
    };
    let delta = pos.saturating_sub(r.at).min(r.len);
    let src = body.get(r.src.clone()).unwrap_or("");
    if src.len() == r.len {
        // Verbatim (or a same-length stand-in): offsets agree inside the run.
        r.src.start + delta
    } else if src.len() > r.len && r.text_is_suffix {
        // An escape ahead of the text (`\*x` → `*x`): the text is the end of the source.
        r.src.end - (r.len - delta)
    } else {
        // A stand-in of another length (`"` → `“`, `--` → `–`, `&amp;` → `&`): its start.
        r.src.start
    }
}

/// Split text into literal runs and `{kind:id}` / `{npcs}` directives; `runs` map offsets in `text` back
/// to the chapter body for [`Found`].
fn directives(
    text: &str,
    runs: &[Run],
    body: &str,
    found: &mut Vec<Found>,
    placed: bool,
) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut rest = 0;
    let mut i = 0;
    while let Some(open) = text[i..].find('{').map(|o| o + i) {
        let Some(close) = text[open..].find('}').map(|c| c + open) else {
            break;
        };
        let inner = &text[open + 1..close];
        let parsed = match inner.split_once(':') {
            Some(("table", id)) => Some((RefKind::Table, id.trim())),
            Some(("lookup", id)) => Some((RefKind::Lookup, id.trim())),
            Some(("deck", id)) => Some((RefKind::Deck, id.trim())),
            None if inner.trim() == "npcs" => Some((RefKind::Npcs, "")),
            _ => None,
        };
        let at = source_offset(runs, body, open);
        match parsed {
            Some((of, id)) => {
                if rest < open {
                    out.push(Inline::Text {
                        text: text[rest..open].to_owned(),
                    });
                }
                found.push(Found::Directive {
                    of,
                    id: id.to_owned(),
                    placed,
                    at,
                });
                out.push(Inline::Ref {
                    of,
                    id: id.to_owned(),
                });
                rest = close + 1;
            }
            None => {
                if inner.contains(':') || inner.chars().all(|c| c.is_ascii_lowercase()) {
                    found.push(Found::BadDirective {
                        text: text[open..=close].to_owned(),
                        at,
                    });
                }
            }
        }
        i = close + 1;
    }
    if rest < text.len() {
        out.push(Inline::Text {
            text: text[rest..].to_owned(),
        });
    }
    out
}

/// Where a link points: `breaks.md`, `breaks.md#anchor`, `#anchor` (this chapter) or a URL.
fn link_target(dest: &str, this: &str) -> Option<(String, Option<String>)> {
    if dest.contains("://") || dest.starts_with("mailto:") {
        return None;
    }
    let (file, anchor) = match dest.split_once('#') {
        Some((f, a)) => (f, Some(a.to_owned())),
        None => (dest, None),
    };
    let chapter = if file.is_empty() {
        this.to_owned()
    } else {
        file.trim_start_matches("./")
            .trim_end_matches(".md")
            .to_owned()
    };
    Some((chapter, anchor))
}

/// A container that nests in every output: block quotes, lists, emphasis, strong emphasis and links.
/// (Strikethrough and images are flattened into their text; list items go with their list.)
fn nests(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::BlockQuote(_) | Tag::List(_) | Tag::Emphasis | Tag::Strong | Tag::Link { .. }
    )
}

fn nests_end(end: &TagEnd) -> bool {
    matches!(
        end,
        TagEnd::BlockQuote(_) | TagEnd::List(_) | TagEnd::Emphasis | TagEnd::Strong | TagEnd::Link
    )
}

/// Parse one chapter body. `slug` is the chapter's own name, for `#anchor` links.
pub fn parse(body: &str, slug: &str) -> Parsed {
    let mut parsed = Parsed::default();
    // Stack of open containers: each holds the blocks or inlines being built.
    enum Frame {
        Blocks(Vec<Block>),
        Inlines(Vec<Inline>),
        Link {
            dest: String,
            at: usize,
            content: Vec<Inline>,
        },
        List {
            ordered: bool,
            start: u64,
            items: Vec<Vec<Block>>,
        },
        /// A list item: inlines not yet in a paragraph, and its blocks so far.
        Item {
            inlines: Vec<Inline>,
            blocks: Vec<Block>,
        },
        Grid {
            header: Vec<Vec<Inline>>,
            rows: Vec<Vec<Vec<Inline>>>,
            in_head: bool,
            row: Vec<Vec<Inline>>,
        },
    }
    let mut stack: Vec<Frame> = vec![Frame::Blocks(Vec::new())];
    let mut text_buf = String::new();
    let mut runs: Vec<Run> = Vec::new();

    fn push_inline(stack: &mut [Frame], i: Inline) {
        if let Some(
            Frame::Inlines(v) | Frame::Link { content: v, .. } | Frame::Item { inlines: v, .. },
        ) = stack.last_mut()
        {
            v.push(i);
        }
    }
    fn push_block(stack: &mut [Frame], b: Block) {
        match stack.last_mut() {
            Some(Frame::Blocks(v)) => v.push(b),
            Some(Frame::Item { inlines, blocks }) => {
                // A tight item's text before a nested list or placed item becomes its own paragraph.
                if !inlines.is_empty() {
                    blocks.push(Block::Para {
                        content: std::mem::take(inlines),
                    });
                }
                blocks.push(b);
            }
            _ => {}
        }
    }
    let flush =
        |stack: &mut Vec<Frame>, buf: &mut String, runs: &mut Vec<Run>, found: &mut Vec<Found>| {
            if buf.is_empty() {
                return;
            }
            for i in directives(buf, runs, body, found, false) {
                push_inline(stack, i);
            }
            buf.clear();
            runs.clear();
        };

    let events = Parser::new_ext(
        body,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SMART_PUNCTUATION,
    )
    .into_offset_iter();
    // Whether the previous event was raw HTML (a block of HTML comes one line per event).
    let mut in_html = false;
    // Containers open now that count towards MAX_NESTING.
    let mut depth = 0usize;
    for (event, range) in events {
        match &event {
            Event::Start(tag) if nests(tag) => {
                depth += 1;
                if depth > parsed.nesting.depth {
                    parsed.nesting.depth = depth;
                }
                if depth > MAX_NESTING && parsed.nesting.too_deep_at.is_none() {
                    parsed.nesting.too_deep_at = Some(range.start);
                }
            }
            Event::End(end) if nests_end(end) => depth = depth.saturating_sub(1),
            _ => {}
        }
        let html = matches!(event, Event::Html(_) | Event::InlineHtml(_));
        if let Event::Html(t) | Event::InlineHtml(t) = &event
            && !in_html
            && !t.trim_start().starts_with("<!--")
        {
            parsed.found.push(Found::Html {
                text: t.lines().next().unwrap_or("").trim().to_owned(),
                at: range.start,
            });
        }
        // An HTML block ends where other events begin; an inline tag is one event.
        in_html = html && matches!(event, Event::Html(_));
        if !matches!(event, Event::Text(_) | Event::SoftBreak) {
            flush(&mut stack, &mut text_buf, &mut runs, &mut parsed.found);
        }
        match event {
            Event::Text(t) => {
                runs.push(Run {
                    at: text_buf.len(),
                    len: t.len(),
                    text_is_suffix: body
                        .get(range.clone())
                        .is_some_and(|src| src.ends_with(&*t)),
                    src: range,
                });
                text_buf.push_str(&t);
            }
            Event::SoftBreak => {
                runs.push(Run {
                    at: text_buf.len(),
                    len: 1,
                    text_is_suffix: false,
                    src: range,
                });
                text_buf.push(' ');
            }
            Event::HardBreak => push_inline(&mut stack, Inline::Break),
            Event::Code(t) => push_inline(
                &mut stack,
                Inline::Code {
                    text: t.to_string(),
                },
            ),
            Event::Rule => push_block(&mut stack, Block::Rule),
            Event::Html(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::TaskListMarker(_) => {}
            Event::InlineMath(t) | Event::DisplayMath(t) => push_inline(
                &mut stack,
                Inline::Text {
                    text: t.to_string(),
                },
            ),
            Event::Start(tag) => match tag {
                Tag::Paragraph
                | Tag::Heading { .. }
                | Tag::Emphasis
                | Tag::Strong
                | Tag::TableCell => stack.push(Frame::Inlines(Vec::new())),
                Tag::Link { dest_url, .. } => stack.push(Frame::Link {
                    dest: dest_url.to_string(),
                    at: range.start,
                    content: Vec::new(),
                }),
                Tag::Strikethrough | Tag::Image { .. } => stack.push(Frame::Inlines(Vec::new())),
                Tag::BlockQuote(_) => stack.push(Frame::Blocks(Vec::new())),
                Tag::CodeBlock(_) => stack.push(Frame::Inlines(Vec::new())),
                Tag::List(start) => stack.push(Frame::List {
                    ordered: start.is_some(),
                    start: start.unwrap_or(1),
                    items: Vec::new(),
                }),
                // Tight list items hold bare inlines (collected as a paragraph), loose ones paragraphs.
                Tag::Item => stack.push(Frame::Item {
                    inlines: Vec::new(),
                    blocks: Vec::new(),
                }),
                Tag::Table(_) => stack.push(Frame::Grid {
                    header: Vec::new(),
                    rows: Vec::new(),
                    in_head: false,
                    row: Vec::new(),
                }),
                Tag::TableHead => {
                    if let Some(Frame::Grid { in_head, .. }) = stack.last_mut() {
                        *in_head = true;
                    }
                }
                Tag::TableRow => {}
                _ => stack.push(Frame::Blocks(Vec::new())),
            },
            Event::End(end) => match end {
                TagEnd::Paragraph => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        // A paragraph that is exactly one directive places the item there.
                        let block = match content.as_slice() {
                            [Inline::Ref { of, id }] => {
                                if let Some(Found::Directive { placed, .. }) = parsed
                                    .found
                                    .iter_mut()
                                    .rev()
                                    .find(|f| matches!(f, Found::Directive { .. }))
                                {
                                    *placed = true;
                                }
                                Block::Place {
                                    of: *of,
                                    id: id.clone(),
                                }
                            }
                            _ => Block::Para { content },
                        };
                        push_block(&mut stack, block);
                    }
                }
                TagEnd::Heading(level) => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        let a = anchor(&plain(&content));
                        parsed.anchors.push(a.clone());
                        let level = match level {
                            HeadingLevel::H1 => 1,
                            HeadingLevel::H2 => 2,
                            HeadingLevel::H3 => 3,
                            HeadingLevel::H4 => 4,
                            HeadingLevel::H5 => 5,
                            HeadingLevel::H6 => 6,
                        };
                        push_block(
                            &mut stack,
                            Block::Heading {
                                level,
                                anchor: a,
                                content,
                            },
                        );
                    }
                }
                TagEnd::Emphasis => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        push_inline(&mut stack, Inline::Emph { content });
                    }
                }
                TagEnd::Strong => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        push_inline(&mut stack, Inline::Strong { content });
                    }
                }
                TagEnd::Strikethrough | TagEnd::Image => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        for i in content {
                            push_inline(&mut stack, i);
                        }
                    }
                }
                TagEnd::Link => {
                    if let Some(Frame::Link { dest, at, content }) = stack.pop() {
                        let inline = match link_target(&dest, slug) {
                            Some((chapter, anchor)) => {
                                parsed.found.push(Found::Link {
                                    chapter: chapter.clone(),
                                    anchor: anchor.clone(),
                                    at,
                                });
                                Inline::Link {
                                    chapter,
                                    anchor,
                                    content,
                                }
                            }
                            None => Inline::Url { url: dest, content },
                        };
                        push_inline(&mut stack, inline);
                    }
                }
                TagEnd::CodeBlock => {
                    if let Some(Frame::Inlines(content)) = stack.pop() {
                        push_block(
                            &mut stack,
                            Block::Code {
                                text: plain(&content),
                            },
                        );
                    }
                }
                TagEnd::BlockQuote(_) => {
                    if let Some(Frame::Blocks(blocks)) = stack.pop() {
                        push_block(&mut stack, Block::Quote { blocks });
                    }
                }
                TagEnd::Item => {
                    if let Some(Frame::Item {
                        inlines,
                        mut blocks,
                    }) = stack.pop()
                    {
                        if !inlines.is_empty() {
                            blocks.push(Block::Para { content: inlines });
                        }
                        if let Some(Frame::List { items, .. }) = stack.last_mut() {
                            items.push(blocks);
                        }
                    }
                }
                TagEnd::List(_) => {
                    if let Some(Frame::List {
                        ordered,
                        start,
                        items,
                    }) = stack.pop()
                    {
                        push_block(
                            &mut stack,
                            Block::List {
                                ordered,
                                start,
                                items,
                            },
                        );
                    }
                }
                TagEnd::TableCell => {
                    if let Some(Frame::Inlines(content)) = stack.pop()
                        && let Some(Frame::Grid { row, .. }) = stack.last_mut()
                    {
                        row.push(content);
                    }
                }
                TagEnd::TableHead => {
                    if let Some(Frame::Grid {
                        header,
                        row,
                        in_head,
                        ..
                    }) = stack.last_mut()
                    {
                        *header = std::mem::take(row);
                        *in_head = false;
                    }
                }
                TagEnd::TableRow => {
                    if let Some(Frame::Grid { rows, row, .. }) = stack.last_mut() {
                        rows.push(std::mem::take(row));
                    }
                }
                TagEnd::Table => {
                    if let Some(Frame::Grid { header, rows, .. }) = stack.pop() {
                        push_block(&mut stack, Block::Grid { header, rows });
                    }
                }
                _ => {
                    if let Some(Frame::Blocks(blocks)) = stack.pop() {
                        for b in blocks {
                            push_block(&mut stack, b);
                        }
                    }
                }
            },
        }
    }
    flush(&mut stack, &mut text_buf, &mut runs, &mut parsed.found);
    if let Some(Frame::Blocks(blocks)) = stack.pop() {
        parsed.blocks = blocks;
    }
    parsed
}

#[cfg(test)]
mod tests;
