//! One print file: every PDF a make wrote, in print order, merged into one PDF in which each document
//! starts on a front (a blank back, marked as intentionally blank, after a document of an odd number of
//! pages), so a GM prints a whole make at once, duplex, and can still pull each document's sheets apart.

use std::path::{Path, PathBuf};

use blockprint_content::error::{Error, Result};
use blockprint_render::driver::Report;
use blockprint_render::error::RenderError;
use blockprint_render::merge::{self, Input, Options, Stats};

/// The file name the print file takes in a make's folder.
pub const FILE: &str = "print-all.pdf";

/// Merge the PDFs `reports` list (their [`Report::print`], in order) into `to`, titled `title`, when
/// there are two or more; with fewer there is nothing to gather and nothing is written (`None`). The
/// file is written whole or not at all.
pub fn print_file(reports: &[Report], to: &Path, title: &str) -> Result<Option<Stats>> {
    let inputs: Vec<Input> = reports
        .iter()
        .flat_map(|r| r.print.iter())
        .map(|(path, bookmark): &(PathBuf, String)| Input {
            path: path.clone(),
            bookmark: bookmark.clone(),
        })
        .collect();
    if inputs.len() < 2 {
        return Ok(None);
    }
    let opts = Options {
        title: title.to_owned(),
        pad_to_even: true,
        // It holds players' documents too: it names no program (render::engine::creator).
        creator: None,
    };
    let mut stats = None;
    blockprint_render::output::stream_into(to, |w| {
        stats = Some(merge::merge(&inputs, &opts, w).map_err(|e| {
            Error::from(RenderError::Pdf {
                made: format!("the print file {}", to.display()),
                message: e.to_string(),
            })
        })?);
        Ok(())
    })?;
    Ok(stats)
}
