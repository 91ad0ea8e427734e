//! The frame decoder on a byte stream fed in pieces: the first input byte is the piece size, the
//! rest the stream. Whole or in pieces, the same payloads come out (none past `MAX_FRAME`), they
//! account for exactly the bytes consumed, and each payload that decodes as a client frame
//! encodes back to a frame that decodes to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shvedka_proto::{ClientFrame, CodecError, FrameDecoder, MAX_FRAME, decode, frame};

/// What a decoder made of a stream: its payloads, the error that stopped it, whether it ended
/// between frames.
type Outcome = (Vec<Vec<u8>>, Option<CodecError>, bool);

fn feed(stream: &[u8], step: usize) -> Outcome {
    let mut decoder = FrameDecoder::new();
    let mut payloads = Vec::new();
    for piece in stream.chunks(step) {
        decoder.push(piece);
        loop {
            match decoder.next_payload() {
                Ok(Some(payload)) => {
                    assert!(payload.len() <= MAX_FRAME);
                    payloads.push(payload);
                }
                Ok(None) => break,
                Err(e) => return (payloads, Some(e), false),
            }
        }
    }
    let ended = decoder.finish().is_ok();
    (payloads, None, ended)
}

fuzz_target!(|data: &[u8]| {
    let Some((&step, stream)) = data.split_first() else { return };
    let whole = feed(stream, stream.len().max(1));
    let pieces = feed(stream, usize::from(step).max(1));
    assert_eq!(whole, pieces, "piece size {step}");

    let (payloads, error, ended) = whole;
    let consumed: usize = payloads.iter().map(|p| 4 + p.len()).sum();
    assert!(consumed <= stream.len());
    if ended {
        assert_eq!(consumed, stream.len(), "finish() accepted a stream with bytes left");
    }
    if let Some(CodecError::TooLarge { len }) = error {
        assert!(len > MAX_FRAME);
        let prefix = &stream[consumed..consumed + 4];
        assert_eq!(u32::from_be_bytes(prefix.try_into().unwrap()) as usize, len);
    }

    for payload in &payloads {
        let Ok(msg) = decode::<ClientFrame>(payload) else { continue };
        let bytes = frame(&msg).expect("a decoded message frames again");
        let mut decoder = FrameDecoder::new();
        decoder.push(&bytes);
        let again: ClientFrame = decoder.next_message().expect("reads back").expect("one whole frame");
        assert_eq!(again, msg);
        decoder.finish().expect("nothing left after one frame");
    }
});
