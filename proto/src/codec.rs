//! Frames: a big-endian `u32` length, then that many bytes of bincode 2 (`standard()`). The
//! length is checked against [`MAX_FRAME`] before anything is allocated for the payload.

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// The largest payload accepted, in bytes.
pub const MAX_FRAME: usize = 64 * 1024;

/// The one bincode configuration of the protocol: the golden vectors depend on every setting.
fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_FRAME>()
}

/// A frame that cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodecError {
    /// The length prefix (or an encoded message) exceeds [`MAX_FRAME`].
    TooLarge {
        /// The length.
        len: usize,
    },
    /// The stream ended inside a frame.
    Truncated,
    /// The payload is not a message (bad bytes, an unknown message, trailing bytes).
    Malformed(String),
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::TooLarge { len } => {
                write!(f, "frame of {len} bytes exceeds the limit of {MAX_FRAME}")
            }
            CodecError::Truncated => f.write_str("the stream ended inside a frame"),
            CodecError::Malformed(why) => write!(f, "malformed frame: {why}"),
        }
    }
}

impl std::error::Error for CodecError {}

/// The payload of one message.
///
/// # Errors
/// [`CodecError::TooLarge`] past [`MAX_FRAME`]; [`CodecError::Malformed`] if serde refuses.
pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    let bytes =
        bincode::serde::encode_to_vec(msg, config()).map_err(|e| CodecError::Malformed(e.to_string()))?;
    if bytes.len() > MAX_FRAME {
        return Err(CodecError::TooLarge { len: bytes.len() });
    }
    Ok(bytes)
}

/// One whole frame: the length prefix and the payload.
///
/// # Errors
/// As [`encode`].
pub fn frame<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    let payload = encode(msg)?;
    let mut out = Vec::with_capacity(4 + payload.len());
    out.extend_from_slice(&(payload.len() as u32).to_be_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
}

/// A message from exactly one payload.
///
/// # Errors
/// [`CodecError::Malformed`] for bytes that are not exactly one message.
pub fn decode<T: DeserializeOwned>(payload: &[u8]) -> Result<T, CodecError> {
    match bincode::serde::decode_from_slice::<T, _>(payload, config()) {
        Ok((msg, used)) if used == payload.len() => Ok(msg),
        Ok((_, used)) => {
            Err(CodecError::Malformed(format!("{} bytes after the message", payload.len() - used)))
        }
        Err(e) => Err(CodecError::Malformed(e.to_string())),
    }
}

/// Splits a byte stream into frame payloads, sans IO: push what arrives, take whole frames.
#[derive(Clone, Debug, Default)]
pub struct FrameDecoder {
    buf: Vec<u8>,
}

impl FrameDecoder {
    /// An empty decoder.
    pub fn new() -> FrameDecoder {
        FrameDecoder::default()
    }

    /// Adds bytes that arrived.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next whole payload, if one has arrived.
    ///
    /// # Errors
    /// [`CodecError::TooLarge`] as soon as a length prefix exceeds [`MAX_FRAME`].
    pub fn next_payload(&mut self) -> Result<Option<Vec<u8>>, CodecError> {
        let Some(prefix) = self.buf.first_chunk::<4>() else { return Ok(None) };
        let len = u32::from_be_bytes(*prefix) as usize;
        if len > MAX_FRAME {
            return Err(CodecError::TooLarge { len });
        }
        if self.buf.len() < 4 + len {
            return Ok(None);
        }
        let payload = self.buf[4..4 + len].to_vec();
        self.buf.drain(..4 + len);
        Ok(Some(payload))
    }

    /// The next whole message, if one has arrived.
    ///
    /// # Errors
    /// As [`FrameDecoder::next_payload`] and [`decode`].
    pub fn next_message<T: DeserializeOwned>(&mut self) -> Result<Option<T>, CodecError> {
        self.next_payload()?.map(|p| decode(&p)).transpose()
    }

    /// Checks that the stream ended between frames.
    ///
    /// # Errors
    /// [`CodecError::Truncated`] if part of a frame is left.
    pub fn finish(&self) -> Result<(), CodecError> {
        if self.buf.is_empty() { Ok(()) } else { Err(CodecError::Truncated) }
    }
}
