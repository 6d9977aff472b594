//! Arbitrary bytes as content: everything before the first NUL byte is a TOML file `t.toml`, the
//! rest a Markdown chapter `c.md` beside it (a `[[book]]` in the TOML with `chapters = ["c"]` reaches
//! it). Loaded from memory and checked; the report is rendered as text and JSON. Must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (toml, md) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let files = vec![
        ("c.md".to_owned(), md.to_vec()),
        ("t.toml".to_owned(), toml.to_vec()),
    ];
    let (lib, diags) = blockprint::content::load_files(files);
    let report = blockprint::check::run(&lib, diags);
    let _ = blockprint::diag::render_text(&report.diagnostics, &lib.sources);
    let _ = blockprint::diag::render_json(&report.diagnostics);
});
