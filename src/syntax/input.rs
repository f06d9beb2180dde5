//! Reading an input's text: a file or standard input, gzip-compressed or not, as UTF-8, read
//! in chunks under a size cap.
//!
//! A gzip bomb (13 MB that expand to 3 GB of zeros) or `/dev/zero` must be refused before it
//! fills memory: the text is read a chunk at a time, a NUL byte (no SMT-LIB or C text has one)
//! is an error at its position as soon as its chunk arrives, and text beyond the cap
//! ([`InputCap`], after decompression) is an error without reading further.
//!
//! Must not: parse, or keep more than the cap plus one chunk.

use super::ast::Span;
use super::{Error, ErrorKind, STDIN};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// The most bytes of text (after decompression) an input may have. The default is
/// [`InputCap::DEFAULT_MB`] megabytes; the environment variable `HORNBEAM_MAX_INPUT_MB`
/// sets another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputCap(pub u64);

impl InputCap {
    /// The default cap in megabytes: far above every CHC-COMP and SV-COMP input (the largest
    /// are a few megabytes), far below what a solve may use.
    pub const DEFAULT_MB: u64 = 128;

    /// The cap `HORNBEAM_MAX_INPUT_MB` names, or the default (also when it is not a number).
    pub fn from_env() -> Self {
        let mb = std::env::var("HORNBEAM_MAX_INPUT_MB")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(InputCap::DEFAULT_MB);
        InputCap(mb.saturating_mul(1 << 20))
    }
}

/// The first two bytes of every gzip stream (RFC 1952); no SMT-LIB or C text starts so.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Bytes read at a time.
const CHUNK: usize = 1 << 16;

/// Reads an input as UTF-8 text under the cap `HORNBEAM_MAX_INPUT_MB` sets ([`read_text_capped`]).
pub fn read_text(path: &Path) -> Result<String, (Error, String)> {
    read_text_capped(path, InputCap::from_env())
}

/// Reads an input as UTF-8 text: a file, or standard input for `-`; gzip-compressed input
/// (recognised by its magic bytes, whatever its name) is decompressed. A non-UTF-8 input is a
/// syntax error at its first bad byte, and so is a NUL byte; text longer than `cap` is an
/// error. A leading byte-order mark is dropped (it is invisible, so columns are counted
/// without it). On an error at a place, the text before it comes along (to render the place).
pub fn read_text_capped(path: &Path, cap: InputCap) -> Result<String, (Error, String)> {
    let name = super::display_name(path);
    let io = |source: std::io::Error| {
        (
            Error::Io {
                path: name.clone(),
                source,
            },
            String::new(),
        )
    };
    let raw: Box<dyn Read> = match path.as_os_str() == STDIN {
        true => Box::new(std::io::stdin().lock()),
        false => Box::new(std::fs::File::open(path).map_err(io)?),
    };
    let mut raw = BufReader::with_capacity(CHUNK, raw);
    let gzip = raw.fill_buf().map_err(io)?.starts_with(&GZIP_MAGIC);
    let mut reader: Box<dyn Read> = match gzip {
        true => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        false => Box::new(raw),
    };
    let gzip_error = |e: std::io::Error| io(std::io::Error::new(e.kind(), format!("gzip: {e}")));
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if gzip => return Err(gzip_error(e)),
            Err(e) => return Err(io(e)),
        };
        if let Some(i) = chunk[..n].iter().position(|&b| b == 0) {
            // The first problem in the text is reported: bad UTF-8 before the NUL, or the NUL.
            bytes.extend_from_slice(&chunk[..i]);
            bytes.push(0);
            return Err(match text(bytes) {
                Err(bad_utf8) => bad_utf8,
                Ok(mut prefix) => {
                    prefix.pop();
                    let span = Span {
                        start: prefix.len(),
                        end: prefix.len() + 1,
                    };
                    (
                        Error::at(ErrorKind::Syntax, span, "invalid character U+0000"),
                        prefix,
                    )
                }
            });
        }
        if (bytes.len() + n) as u64 > cap.0 {
            return Err((Error::TooLarge { limit: cap.0 }, String::new()));
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    text(bytes)
}

/// `bytes` as UTF-8 text without a leading byte-order mark (it is invisible, so columns are
/// counted without it), or the syntax error at the first bad byte with the text before it.
fn text(mut bytes: Vec<u8>) -> Result<String, (Error, String)> {
    if bytes.starts_with("\u{feff}".as_bytes()) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let prefix = String::from_utf8_lossy(&e.as_bytes()[..good]).into_owned();
        let span = Span {
            start: good,
            end: good + 1,
        };
        (
            Error::at(ErrorKind::Syntax, span, "the input is not UTF-8 text"),
            prefix,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{read_text_capped, InputCap};
    use std::io::Write;

    /// A temporary file holding `bytes`.
    fn file(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temporary file");
        f.write_all(bytes).expect("temporary file");
        f
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).expect("in memory");
        e.finish().expect("in memory")
    }

    #[test]
    fn text_plain_and_gzipped_with_a_byte_order_mark() {
        let text = "\u{feff}(check-sat)\n";
        let cap = InputCap(1 << 20);
        for bytes in [text.as_bytes().to_vec(), gzip(text.as_bytes())] {
            let f = file(&bytes);
            assert_eq!(
                read_text_capped(f.path(), cap).expect("reads"),
                "(check-sat)\n"
            );
        }
    }

    #[test]
    fn a_nul_byte_is_an_error_at_its_place_before_the_rest_is_read() {
        // 4 MB of zeros after a line, behind a cap of 1 MB: the NUL is found first.
        let mut bytes = b"(set-logic HORN)\n".to_vec();
        bytes.extend(std::iter::repeat_n(0u8, 4 << 20));
        let f = file(&gzip(&bytes));
        let (e, prefix) = read_text_capped(f.path(), InputCap(1 << 20)).expect_err("refused");
        assert_eq!(e.render("f", &prefix), "f:2:1: invalid character U+0000");
    }

    #[test]
    fn text_beyond_the_cap_is_refused() {
        let f = file(&gzip(&vec![b' '; 3 << 20]));
        let (e, _) = read_text_capped(f.path(), InputCap(1 << 20)).expect_err("refused");
        assert!(e
            .render("f", "")
            .starts_with("f:1:1: the input is larger than 1 MB"));
        assert!(read_text_capped(f.path(), InputCap(4 << 20)).is_ok());
    }

    #[test]
    fn bad_utf8_is_an_error_at_its_byte() {
        let f = file(b"(check-sat)\n\xff");
        let (e, prefix) = read_text_capped(f.path(), InputCap(1 << 20)).expect_err("refused");
        assert_eq!(e.render("f", &prefix), "f:2:1: the input is not UTF-8 text");
    }
}
