//! The framing under bad input: every malformed stream is a typed error, never a panic or an
//! allocation of what a length prefix claims.

use shvedka_proto::*;

fn ready() -> ClientFrame {
    ClientFrame { req: 1, msg: ClientMsg::Ready { ready: true } }
}

#[test]
fn frames_split_anywhere_reassemble() {
    let msgs: Vec<ClientFrame> = (0..50)
        .map(|i| ClientFrame {
            req: i,
            msg: ClientMsg::Chat { scope: ChatScope::Team, text: "x".repeat(i as usize * 7) },
        })
        .collect();
    let stream: Vec<u8> = msgs.iter().flat_map(|m| frame(m).unwrap()).collect();
    for chunk in [1, 2, 3, 5, 64, 4096] {
        let mut d = FrameDecoder::new();
        let mut got = Vec::new();
        for piece in stream.chunks(chunk) {
            d.push(piece);
            while let Some(m) = d.next_message::<ClientFrame>().unwrap() {
                got.push(m);
            }
        }
        d.finish().unwrap();
        assert_eq!(got, msgs, "chunk {chunk}");
    }
}

#[test]
fn an_oversized_length_is_refused_before_the_payload_arrives() {
    let mut d = FrameDecoder::new();
    d.push(&(MAX_FRAME as u32 + 1).to_be_bytes());
    assert_eq!(d.next_message::<ClientFrame>(), Err(CodecError::TooLarge { len: MAX_FRAME + 1 }));
    let mut d = FrameDecoder::new();
    d.push(&u32::MAX.to_be_bytes());
    assert!(matches!(d.next_message::<ClientFrame>(), Err(CodecError::TooLarge { .. })));
    let huge = ClientMsg::Chat { scope: ChatScope::Team, text: "x".repeat(MAX_FRAME) };
    assert!(matches!(frame(&ClientFrame { req: 0, msg: huge }), Err(CodecError::TooLarge { .. })));
}

#[test]
fn a_truncated_frame_is_reported_at_the_end_of_the_stream() {
    let bytes = frame(&ready()).unwrap();
    let mut d = FrameDecoder::new();
    d.push(&bytes[..bytes.len() - 1]);
    assert_eq!(d.next_message::<ClientFrame>(), Ok(None));
    assert_eq!(d.finish(), Err(CodecError::Truncated));
}

#[test]
fn garbage_unknown_messages_and_trailing_bytes_are_malformed() {
    assert!(matches!(decode::<ClientFrame>(&[0, 200]), Err(CodecError::Malformed(_))), "unknown variant");
    assert!(matches!(decode::<ClientFrame>(&[]), Err(CodecError::Malformed(_))));
    let mut bytes = encode(&ready()).unwrap();
    bytes.push(0);
    assert_eq!(decode::<ClientFrame>(&bytes), Err(CodecError::Malformed("1 bytes after the message".into())));
    // A string claiming a megabyte is refused without allocating it.
    let claim = [0u8, 9, 0, 0xfd, 0, 0, 0x10, 0, 0, 0, 0, 0];
    assert!(matches!(decode::<ClientFrame>(&claim), Err(CodecError::Malformed(_))));
}

#[test]
fn mutated_frames_never_panic() {
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let base = encode(&ClientFrame {
        req: 3,
        msg: ClientMsg::Hello {
            version: 1,
            name: "anna".into(),
            resume: Some(Resume { token: "t".into(), last_seq: Some(5), match_id: Some(MatchId(2)) }),
        },
    })
    .unwrap();
    for _ in 0..20_000 {
        let mut b = base.clone();
        for _ in 0..1 + next() % 4 {
            let i = (next() as usize) % b.len();
            b[i] = next() as u8;
        }
        let _ = decode::<ClientFrame>(&b);
        let _ = decode::<ServerMsg>(&b);
    }
}
