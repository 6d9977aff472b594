//! Colour on the terminal. `--color auto|always|never` (global, as cargo and ripgrep spell it) decides;
//! `auto`, the default, colours a stream that is a terminal, unless `NO_COLOR` is set (to anything but
//! an empty string), and colours even a pipe when `CLICOLOR_FORCE` is set (to anything but `0`); with
//! `CLICOLOR=0` it never colours. These are the rules clap (anstream) applies to its own help and
//! errors, so `--help` and the command's diagnostics agree. `always` and `never` override the
//! environment.
//!
//! What is coloured: the checker's diagnostics (`diag::render_text_styled`), and on stderr the head of
//! every `error…:` and `warning…:` line and the `=` of `= help:` notes (`diag::paint`). Every
//! `eprintln!`/`eprint!` in the command line goes through [`eprint`] (see the macros in `cli/mod.rs`).

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU8, Ordering};

use clap::{ColorChoice, ValueEnum};

/// 0: not decided yet (auto); 1: colour; 2: plain. One cell per stream.
static STDOUT: AtomicU8 = AtomicU8::new(0);
static STDERR: AtomicU8 = AtomicU8::new(0);

/// Decide, once per run and before anything is printed, whether stdout and stderr get colour.
pub fn init(choice: ColorChoice) {
    let out = colour_for(choice, std::io::stdout().is_terminal());
    let err = colour_for(choice, std::io::stderr().is_terminal());
    STDOUT.store(if out { 1 } else { 2 }, Ordering::Relaxed);
    STDERR.store(if err { 1 } else { 2 }, Ordering::Relaxed);
}

/// Whether what goes to stdout is coloured.
pub fn stdout() -> bool {
    decided(&STDOUT, || std::io::stdout().is_terminal())
}

/// Whether what goes to stderr is coloured.
pub fn stderr() -> bool {
    decided(&STDERR, || std::io::stderr().is_terminal())
}

fn decided(cell: &AtomicU8, terminal: impl Fn() -> bool) -> bool {
    match cell.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => colour_for(ColorChoice::Auto, terminal()),
    }
}

/// The choice for a stream that is (or is not) a terminal, in this process's environment.
fn colour_for(choice: ColorChoice, terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let var = |name: &str| std::env::var_os(name);
            let clicolor = var("CLICOLOR").map(|v| v != "0");
            if var("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                false
            } else if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
                true
            } else if clicolor == Some(false) {
                false
            } else {
                terminal
                    && (var("TERM").is_some_and(|t| t != "dumb")
                        || cfg!(windows)
                        || clicolor == Some(true)
                        || var("CI").is_some())
            }
        }
    }
}

/// The `--color` of a command line not parsed yet (the last one before a `--`), so clap's own help and
/// errors follow it as the command's output will; `auto` when there is none or it is not a choice
/// (clap then reports the bad value).
pub fn choice_in(args: &[std::ffi::OsString]) -> ColorChoice {
    let mut choice = ColorChoice::Auto;
    let mut it = args.iter().skip(1).map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        let value = if a == "--" {
            break;
        } else if a == "--color" {
            it.next()
        } else if let Some(v) = a.strip_prefix("--color=") {
            Some(v.to_owned().into())
        } else {
            continue;
        };
        if let Some(c) = value.and_then(|v| ColorChoice::from_str(&v, true).ok()) {
            choice = c;
        }
    }
    choice
}

/// Write `text` to stderr, its `error:`/`warning:` heads coloured when stderr is. A stderr that cannot
/// be written to is ignored: there is nowhere left to say so.
pub fn eprint(text: &str) {
    let text = crate::diag::paint(text, stderr());
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// The command line's [`Sink`](crate::app::Sink): each event's line on stderr, its `error:`/`warning:`
/// head coloured as every other line is, and while a kind makes two documents or more, a progress bar on
/// a terminal. With `--check-pages` it asks for every page to be checked and keeps the page faults for the
/// end of the run ([`Terminal::page_faults`]).
#[derive(Debug, Default)]
pub struct Terminal {
    bars: std::sync::Mutex<std::collections::BTreeMap<String, indicatif::ProgressBar>>,
    check_pages: bool,
    faults: std::sync::Mutex<Vec<String>>,
}

impl Terminal {
    /// The terminal of a run that checks every page it typesets (`--check-pages`) or none.
    pub fn checking_pages(check_pages: bool) -> Self {
        Terminal {
            check_pages,
            ..Terminal::default()
        }
    }

    /// The page faults reported so far, sorted and each once (documents are typeset on several
    /// threads, in no fixed order), and the list emptied.
    pub fn page_faults(&self) -> Vec<String> {
        let mut found = std::mem::take(&mut *self.faults.lock().unwrap_or_else(|e| e.into_inner()));
        found.sort();
        found.dedup();
        found
    }
}

impl crate::app::Sink for Terminal {
    fn checks_pages(&self) -> bool {
        self.check_pages
    }

    fn event(&self, e: crate::app::Event) {
        if let crate::app::Event::PageFault(line) = e {
            self.faults
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(line);
            return;
        }
        let crate::app::Event::Progress { kind, done, total } = e else {
            let text = format!("{}\n", e.named(&|id| super::flag(id)));
            let bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
            // A line printed while a bar is drawn goes above it.
            match bars.values().next() {
                Some(bar) => bar.suspend(|| eprint(&text)),
                None => eprint(&text),
            }
            return;
        };
        let mut bars = self.bars.lock().unwrap_or_else(|e| e.into_inner());
        if done >= total {
            if let Some(bar) = bars.remove(&kind) {
                bar.finish_and_clear();
            }
            return;
        }
        if let Some(bar) = bars.get(&kind) {
            bar.set_position(done as u64);
            return;
        }
        if total < 2 || !std::io::stderr().is_terminal() {
            return;
        }
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {per_sec} eta {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_position(done as u64);
        bars.insert(kind, bar);
    }
}
