//! The Markdown a book or a kit lists: each chapter or page found by its slug, its front matter read,
//! and the Markdown files beside it that nothing lists reported.

use super::*;

/// Resolve each book's chapter slugs to `<book folder>/<slug>.md`, and each kit's page slugs to
/// `<kit folder>/kit/<slug>.md`; read their front matter, and report missing chapters, bad front matter,
/// and Markdown files beside a book (or in a kit's `kit/` folder) that it does not list.
pub(super) fn chapters(
    lib: &mut Library,
    markdown: &BTreeMap<String, Vec<u8>>,
    diags: &mut Vec<Diagnostic>,
    mut cache: Option<&mut LoadCache>,
) {
    let folder_of = |lib: &Library, file: usize| match lib.sources[file].path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/"),
        None => String::new(),
    };
    for b in 0..lib.books.len() {
        let folder = folder_of(lib, lib.books[b].id.loc.file);
        let (id, order) = (lib.books[b].id.clone(), lib.books[b].order.clone());
        lib.books[b].chapters = pages(
            lib,
            &id,
            (&folder, "chapters"),
            &order,
            markdown,
            diags,
            cache.as_deref_mut(),
        );
    }
    for k in 0..lib.kits.len() {
        if lib.kits[k].order.is_empty() {
            continue;
        }
        let folder = format!("{}kit/", folder_of(lib, lib.kits[k].id.loc.file));
        let (id, order) = (lib.kits[k].id.clone(), lib.kits[k].order.clone());
        lib.kits[k].pages = pages(
            lib,
            &id,
            (&folder, "pages"),
            &order,
            markdown,
            diags,
            cache.as_deref_mut(),
        );
    }
}

/// The Markdown pages `<folder><slug>.md` listed in `order` (the `key` of the book or kit `owner`),
/// read anew or taken from `cache`.
fn pages(
    lib: &mut Library,
    owner: &Located<String>,
    (folder, key): (&str, &str),
    order: &[Located<String>],
    markdown: &BTreeMap<String, Vec<u8>>,
    diags: &mut Vec<Diagnostic>,
    mut cache: Option<&mut LoadCache>,
) -> Vec<Chapter> {
    let mut found = Vec::new();
    {
        for slug in order {
            let path = format!("{folder}{}.md", slug.value);
            let Some(bytes) = markdown.get(&path) else {
                diags.push(
                    Diagnostic::error(Kind::MissingChapter, &lib.sources, &slug.loc, format!("chapter `{}` has no file {path}", slug.value))
                        .with_table(&owner.value)
                        .with_hint(format!("create {path} with `+++ title = \"…\" +++` front matter, or remove `{}` from `{key}`", slug.value)),
                );
                continue;
            };
            let file = lib.sources.len();
            if let Some(hit) = cache
                .as_deref_mut()
                .and_then(|c| c.chapter(&path, file, bytes, &owner.value, &slug.value))
            {
                lib.sources.push(hit.source.clone());
                diags.extend(hit.diags.iter().cloned());
                found.extend(hit.chapter.clone());
                continue;
            }
            let (diags_before, found_before) = (diags.len(), found.len());
            lib.sources.push(Source::new(
                path.clone(),
                String::from_utf8_lossy(bytes).into_owned(),
            ));
            if let Err(e) = std::str::from_utf8(bytes) {
                // Up to the first bad byte the lossy text is the file's own, so the place is exact.
                let at = e.valid_up_to();
                diags.push(
                    Diagnostic::error(
                        Kind::Parse,
                        &lib.sources,
                        &loc(file, at..at + 1),
                        "file is not valid UTF-8",
                    )
                    .with_table(&owner.value)
                    .with_hint("save the file as UTF-8"),
                );
            } else if let Some(d) = text_controls(&lib.sources, file) {
                diags.push(d.with_table(&owner.value));
            }
            // Either error stops every output; the chapter still loads so the rest is checked too.
            match front_matter(&lib.sources[file].text) {
                Ok((fm_span, body_offset)) => {
                    let text = &lib.sources[file].text;
                    match toml::from_str::<FrontMatter>(&text[fm_span.clone()]) {
                        Ok(fm) => {
                            let chapter = Chapter {
                                slug: slug.value.clone(),
                                title: fm.title,
                                role: fm.role,
                                body: text[body_offset..].to_owned(),
                                file,
                                body_offset,
                            };
                            found.push(chapter);
                        }
                        Err(e) => {
                            let span = e.span().map_or(fm_span.start..fm_span.start, |s| {
                                fm_span.start + s.start..fm_span.start + s.end
                            });
                            let msg = first_line(e.message()).to_owned();
                            diags.push(
                                Diagnostic::error(
                                    Kind::Schema,
                                    &lib.sources,
                                    &Loc { file, span },
                                    format!("front matter: {msg}"),
                                )
                                .with_hint(
                                    "front matter holds `title = \"…\"` (and, for the book's quick reference, `role = \"quick-reference\"`) between `+++` lines",
                                ),
                            );
                        }
                    }
                }
                Err(msg) => diags.push(
                    Diagnostic::error(Kind::Schema, &lib.sources, &Loc { file, span: 0..0 }, msg)
                        .with_hint(
                            "start the chapter with `+++`, a line `title = \"…\"`, and `+++`",
                        ),
                ),
            }
            // A page that is not UTF-8 is read anew each time (its text is not its bytes).
            if let Some(c) = cache.as_deref_mut()
                && std::str::from_utf8(bytes).is_ok()
            {
                c.put_chapter(ReadChapter {
                    file,
                    owner: owner.value.clone(),
                    slug: slug.value.clone(),
                    source: lib.sources[file].clone(),
                    chapter: found[found_before..].first().cloned(),
                    diags: diags[diags_before..].to_vec(),
                });
            }
        }
        // Markdown beside the book that the book does not list.
        for path in markdown.keys() {
            let Some(rest) = path.strip_prefix(folder) else {
                continue;
            };
            if rest.contains('/') || rest.eq_ignore_ascii_case("README.md") {
                continue;
            }
            let slug = rest.trim_end_matches(".md");
            if !order.iter().any(|s| s.value == slug) {
                let what = if key == "pages" { "kit" } else { "book" };
                diags.push(
                    Diagnostic::warning(
                        Kind::UnlistedChapter,
                        &lib.sources,
                        &owner.loc,
                        format!("{path} is not in the {key} of {what} `{}`", owner.value),
                    )
                    .with_table(&owner.value)
                    .with_hint(format!(
                        "add `\"{slug}\"` to `{key}`, or move the file elsewhere"
                    )),
                );
            }
        }
    }
    found
}

/// The byte span of the TOML between the opening and closing `+++` lines, and where the body starts.
fn front_matter(text: &str) -> Result<(std::ops::Range<usize>, usize), String> {
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let Some(after_open) = rest
        .strip_prefix("+++\n")
        .or_else(|| rest.strip_prefix("+++\r\n"))
    else {
        return Err("a chapter must start with a `+++` front matter line".to_owned());
    };
    let start = text.len() - after_open.len();
    let mut offset = start;
    for line in after_open.split_inclusive('\n') {
        if line.trim_end() == "+++" {
            return Ok((start..offset, offset + line.len()));
        }
        offset += line.len();
    }
    Err("the front matter's closing `+++` line is missing".to_owned())
}
