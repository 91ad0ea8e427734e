//! Malformed frames, in a loop, each on a new connection: on QUIC garbage bytes, a length prefix
//! far above the protocol's 64 KiB, a frame of bytes that are not bincode, garbage after a good
//! `Hello`, a frame cut short by the end of the stream; on the WebSocket a text frame that is not
//! JSON, JSON that is no message, a binary frame of garbage, a frame header claiming 16 MiB, and
//! garbage after a good `Hello`. The server should close each such connection at once (served:
//! it kept it open for [`WAIT`]; refused: it closed it) and let nothing of it reach anyone else.

use std::sync::Arc;
use std::time::Duration;

use shvedka_client::quinn;
use shvedka_proto::{ClientFrame, ClientMsg, PROTOCOL_VERSION};
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

use super::{Ctx, Tally, ws};

/// How long the server has to close a connection after its malformed frame.
const WAIT: Duration = Duration::from_secs(3);
/// Malformed connections at once.
const AT_ONCE: usize = 32;

/// What is sent, and on which transport.
#[derive(Clone, Copy, Debug)]
enum Case {
    QuicGarbage,
    QuicHugeLength,
    QuicNotBincode,
    QuicGarbageAfterHello,
    QuicTruncated,
    WsNotJson,
    WsNoMessage,
    WsBinaryGarbage,
    WsHugeHeader,
    WsGarbageAfterHello,
}

const CASES: [Case; 10] = [
    Case::QuicGarbage,
    Case::QuicHugeLength,
    Case::QuicNotBincode,
    Case::QuicGarbageAfterHello,
    Case::QuicTruncated,
    Case::WsNotJson,
    Case::WsNoMessage,
    Case::WsBinaryGarbage,
    Case::WsHugeHeader,
    Case::WsGarbageAfterHello,
];

impl Case {
    fn on_websocket(self) -> bool {
        matches!(
            self,
            Case::WsNotJson
                | Case::WsNoMessage
                | Case::WsBinaryGarbage
                | Case::WsHugeHeader
                | Case::WsGarbageAfterHello
        )
    }

    /// The bytes this case writes on its stream (for the WebSocket: its frames).
    fn bytes(self) -> Vec<u8> {
        let garbage: Vec<u8> = (0u8..64).map(|i| i.wrapping_mul(151).wrapping_add(7)).collect();
        let hello = ClientFrame {
            req: 0,
            msg: ClientMsg::Hello { version: PROTOCOL_VERSION, name: String::new(), resume: None },
        };
        let mask = [0x5a, 0x11, 0xc3, 0x7e];
        match self {
            Case::QuicGarbage => garbage,
            Case::QuicHugeLength => [[0xFF; 4].as_slice(), &garbage].concat(),
            Case::QuicNotBincode => [16u32.to_be_bytes().as_slice(), &[0xFF; 16]].concat(),
            Case::QuicGarbageAfterHello => {
                let hello = shvedka_proto::frame(&hello).unwrap_or_default();
                [hello.as_slice(), &8u32.to_be_bytes(), &[0xEE; 8]].concat()
            }
            Case::QuicTruncated => [100u32.to_be_bytes().as_slice(), &garbage[..10]].concat(),
            Case::WsNotJson => ws::frame(ws::TEXT, b"{{{{ not json", mask),
            Case::WsNoMessage => ws::frame(ws::TEXT, br#"{"req":1,"msg":{"Nope":{}}}"#, mask),
            Case::WsBinaryGarbage => ws::frame(ws::BINARY, &garbage, mask),
            Case::WsHugeHeader => [ws::header(ws::BINARY, 16 << 20, mask), vec![0; 1024]].concat(),
            Case::WsGarbageAfterHello => {
                let hello = serde_json::to_vec(&hello).unwrap_or_default();
                [ws::frame(ws::TEXT, &hello, mask), ws::frame(ws::TEXT, b"]]]", mask)].concat()
            }
        }
    }
}

pub(crate) async fn run(ctx: &Arc<Ctx>, tally: &Arc<Tally>) {
    let endpoint = match ctx.endpoint(ctx.from) {
        Ok(e) => e,
        Err(e) => return tally.failed(super::reason(&e)),
    };
    let slots = Arc::new(Semaphore::new(AT_ONCE));
    let mut attempts = 0u64;
    for case in CASES.iter().copied().cycle() {
        if ctx.over() || attempts >= ctx.max_attempts {
            break;
        }
        if case.on_websocket() && ctx.http.is_none() {
            continue;
        }
        let Ok(Ok(slot)) = tokio::time::timeout_at(ctx.until, slots.clone().acquire_owned()).await else {
            break;
        };
        attempts += 1;
        let (ctx, tally, endpoint) = (ctx.clone(), tally.clone(), endpoint.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let outcome = if case.on_websocket() {
                websocket(&ctx, case).await
            } else {
                quic(&ctx, &endpoint, case).await
            };
            match outcome {
                Ok(true) => tally.refused(format!("{case:?}: closed by the server")),
                Ok(false) => tally.served(),
                Err(e) => tally.failed(format!("{case:?}: {e}")),
            }
        });
    }
    let _ = tokio::time::timeout(WAIT + Duration::from_secs(1), slots.acquire_many(AT_ONCE as u32)).await;
}

/// Sends the case on a new QUIC connection; whether the server closed it within [`WAIT`].
async fn quic(ctx: &Ctx, endpoint: &quinn::Endpoint, case: Case) -> Result<bool, String> {
    let conn = endpoint
        .connect(ctx.server, "localhost")
        .map_err(|e| e.to_string())?
        .await
        .map_err(|e| e.to_string())?;
    let (mut send, _recv) = conn.open_bi().await.map_err(|e| e.to_string())?;
    send.write_all(&case.bytes()).await.map_err(|e| e.to_string())?;
    if matches!(case, Case::QuicTruncated) {
        let _ = send.finish();
    }
    let closed = tokio::time::timeout(WAIT, conn.closed()).await.is_ok();
    conn.close(0u32.into(), b"");
    Ok(closed)
}

/// Sends the case on a new WebSocket; whether the server closed it within [`WAIT`].
async fn websocket(ctx: &Ctx, case: Case) -> Result<bool, String> {
    let http = ctx.http.ok_or("no HTTP side")?;
    let mut stream = match ws::open(ctx.from, http).await.map_err(|e| e.to_string())? {
        Ok(stream) => stream,
        Err(status) => return Err(format!("upgrade answered {status}")),
    };
    stream.write_all(&case.bytes()).await.map_err(|e| e.to_string())?;
    Ok(ws::closed_within(&mut stream, WAIT).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_case_is_malformed_as_the_protocol_reads_it() {
        let mut decoder = shvedka_proto::FrameDecoder::new();
        decoder.push(&Case::QuicHugeLength.bytes());
        assert!(decoder.next_payload().is_err(), "a length above MAX_FRAME is refused from its prefix");
        let mut decoder = shvedka_proto::FrameDecoder::new();
        decoder.push(&Case::QuicNotBincode.bytes());
        let payload = decoder.next_payload().unwrap().unwrap();
        assert!(shvedka_proto::decode::<ClientFrame>(&payload).is_err());
        let mut decoder = shvedka_proto::FrameDecoder::new();
        decoder.push(&Case::QuicGarbageAfterHello.bytes());
        let hello = decoder.next_payload().unwrap().unwrap();
        assert!(shvedka_proto::decode::<ClientFrame>(&hello).is_ok(), "the Hello is good");
        let bad = decoder.next_payload().unwrap().unwrap();
        assert!(shvedka_proto::decode::<ClientFrame>(&bad).is_err(), "what follows is not");
        assert_eq!(CASES.iter().filter(|c| c.on_websocket()).count(), 5);
    }
}
