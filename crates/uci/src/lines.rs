//! Lines from the engine, each bounded in length: an engine that writes without end (a bug, or
//! not an engine at all) costs the driver [`MAX_LINE`] bytes and an error, never its memory.

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

use crate::UciError;

/// The longest line the driver reads, in bytes. Fairy-Stockfish's longest are `info` lines with a
/// principal variation of a few hundred moves: about 2 KB.
pub const MAX_LINE: usize = 16 * 1024;

/// Reads lines from an engine's output.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    inner: BufReader<R>,
    /// The part of a line read so far. Kept here, not in the future, so that a read cancelled by
    /// a timeout loses nothing.
    partial: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(crate) fn new(inner: R) -> LineReader<R> {
        LineReader { inner: BufReader::new(inner), partial: Vec::new() }
    }

    /// The next line, without its end (`\n` or `\r\n`); `Ok(None)` at the end of the output.
    ///
    /// Cancel-safe: a call dropped half-way keeps what it read for the next.
    ///
    /// # Errors
    /// [`UciError::LineTooLong`] past [`MAX_LINE`] bytes; [`UciError::Exited`] when reading fails.
    pub(crate) async fn next_line(&mut self) -> Result<Option<String>, UciError> {
        loop {
            let available = match self.inner.fill_buf().await {
                Ok(bytes) => bytes,
                Err(_) => return Err(UciError::Exited { waiting_for: "a line" }),
            };
            if available.is_empty() {
                // The end: a last line without its newline still counts.
                if self.partial.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(self.take_line()));
            }
            let (used, complete) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let content = &available[..used - usize::from(complete)];
            if self.partial.len() + content.len() > MAX_LINE {
                self.inner.consume(used);
                self.partial.clear();
                return Err(UciError::LineTooLong { limit: MAX_LINE });
            }
            self.partial.extend_from_slice(content);
            self.inner.consume(used);
            if complete {
                return Ok(Some(self.take_line()));
            }
        }
    }

    fn take_line(&mut self) -> String {
        let bytes = std::mem::take(&mut self.partial);
        let text = String::from_utf8_lossy(&bytes);
        text.trim_end_matches('\r').to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8]) -> Vec<Result<Option<String>, UciError>> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        loop {
            let line = reader.next_line().await;
            let end = !matches!(line, Ok(Some(_)));
            out.push(line);
            if end {
                return out;
            }
        }
    }

    #[tokio::test]
    async fn lines_end_at_newlines_with_or_without_a_carriage_return() {
        let got = lines(b"uciok\r\nreadyok\nbestmove e2e4").await;
        assert_eq!(
            got,
            [
                Ok(Some("uciok".into())),
                Ok(Some("readyok".into())),
                Ok(Some("bestmove e2e4".into())),
                Ok(None)
            ]
        );
    }

    #[tokio::test]
    async fn a_line_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() {
        let mut input = vec![b'a'; MAX_LINE];
        input.push(b'\n');
        let got = lines(&input).await;
        assert_eq!(got[0].as_ref().unwrap().as_ref().unwrap().len(), MAX_LINE);
        let mut input = vec![b'a'; MAX_LINE + 1];
        input.push(b'\n');
        assert_eq!(lines(&input).await[0], Err(UciError::LineTooLong { limit: MAX_LINE }));
    }
}
