//! The times of the event log written as whole nanoseconds.
//!
//! serde writes a `Duration` as an object of seconds and nanoseconds, and a move's event holds
//! eight of them (its time, the client's and the charged thinking time, the lag credit, the four
//! clocks): about half of each stored row, and a third of the work of writing it. Written as one
//! integer of nanoseconds instead, nothing is rounded (the log still replays to the identical
//! match), and every log written before still reads: a time may be the integer or the old
//! object (or the two-element sequence serde also reads).
//!
//! Reading either form needs a self-describing format: the log is stored as JSON.

use std::fmt;
use std::time::Duration;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// One time, as the log writes and reads it.
struct Nanos(Duration);

impl Serialize for Nanos {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // 584 years: no match time comes near it, but a longer one is refused, not wrapped.
        let nanos = u64::try_from(self.0.as_nanos())
            .map_err(|_| serde::ser::Error::custom("a time too long for the log"))?;
        s.serialize_u64(nanos)
    }
}

impl<'de> Deserialize<'de> for Nanos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Nanos, D::Error> {
        d.deserialize_any(NanosVisitor).map(Nanos)
    }
}

struct NanosVisitor;

impl<'de> Visitor<'de> for NanosVisitor {
    type Value = Duration;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a time: whole nanoseconds, or an object of secs and nanos")
    }

    fn visit_u64<E: de::Error>(self, nanos: u64) -> Result<Duration, E> {
        Ok(Duration::from_nanos(nanos))
    }

    fn visit_i64<E: de::Error>(self, nanos: i64) -> Result<Duration, E> {
        u64::try_from(nanos)
            .map(Duration::from_nanos)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(nanos), &self))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Duration, A::Error> {
        Duration::deserialize(MapAccessDeserializer::new(map))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Duration, A::Error> {
        Duration::deserialize(SeqAccessDeserializer::new(seq))
    }
}

/// `#[serde(with = "nanos::one")]` for a `Duration`.
pub(crate) mod one {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        Nanos(*d).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Nanos::deserialize(d).map(|n| n.0)
    }
}

/// `#[serde(with = "nanos::option")]` for an `Option<Duration>` (`null` when absent).
pub(crate) mod option {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        d.map(Nanos).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Option::<Nanos>::deserialize(d).map(|n| n.map(|n| n.0))
    }
}

/// `#[serde(with = "nanos::four")]` for the four clocks.
pub(crate) mod four {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(d: &[Duration; 4], s: S) -> Result<S::Ok, S::Error> {
        d.map(Nanos).serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[Duration; 4], D::Error> {
        <[Nanos; 4]>::deserialize(d).map(|n| n.map(|n| n.0))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::{Event, EventKind, PlayerId};

    fn moved() -> Event {
        let seat = bughouse::Seat::ALL[2];
        let game = bughouse::Game::new(bughouse::Rules::default());
        let mv = game.legal_moves(seat.board).into_iter().next().expect("a first move");
        Event {
            seq: 43,
            at: Duration::new(20, 2_077_080),
            kind: EventKind::Moved {
                player: PlayerId(2832),
                seat,
                mv,
                client_time: Some(Duration::from_millis(995)),
                charged: Duration::new(0, 995_000_001),
                credit: Duration::new(0, 8_028_898),
            },
            clocks: [
                Duration::new(51, 75_000_000),
                Duration::new(52, 58_000_000),
                Duration::new(51, 66_000_000),
                Duration::new(52, 33_924_842),
            ],
        }
    }

    /// A4: the log replays to the identical match, so its times are kept to the nanosecond.
    #[test]
    fn a4_times_are_written_as_whole_nanoseconds_and_read_back_exactly() {
        let e = moved();
        let json = serde_json::to_string(&e).unwrap();
        assert!(json.contains(r#""at":20002077080"#), "{json}");
        assert!(json.contains(r#""charged":995000001"#), "{json}");
        assert!(json.contains(r#""clocks":[51075000000,52058000000,51066000000,52033924842]"#), "{json}");
        assert!(!json.contains("secs"), "no time as an object: {json}");
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
        let mut none = e.clone();
        if let EventKind::Moved { client_time, .. } = &mut none.kind {
            *client_time = None;
        }
        let json = serde_json::to_string(&none).unwrap();
        assert!(json.contains(r#""client_time":null"#), "{json}");
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), none);
    }

    /// A4: a log written before (times as serde's objects of secs and nanos) still reads, and
    /// reads to the same events.
    #[test]
    fn a4_a_log_written_with_times_as_objects_reads_to_the_same_events() {
        let e = moved();
        let mut old = serde_json::to_value(&e).unwrap();
        let object = |nanos: &serde_json::Value| {
            let n = nanos.as_u64().unwrap();
            serde_json::json!({ "secs": n / 1_000_000_000, "nanos": n % 1_000_000_000 })
        };
        old["at"] = object(&old["at"]);
        let clocks: Vec<serde_json::Value> = old["clocks"].as_array().unwrap().iter().map(object).collect();
        old["clocks"] = clocks.into();
        let moved = &mut old["kind"]["Moved"];
        for field in ["client_time", "charged", "credit"] {
            moved[field] = object(&moved[field]);
        }
        let text = old.to_string();
        assert!(text.contains(r#""at":{"secs":20,"nanos":2077080}"#), "{text}");
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), e);
        // serde's other form of a time, a sequence of the two.
        let seq = text.replace(r#"{"secs":20,"nanos":2077080}"#, "[20,2077080]");
        assert_eq!(serde_json::from_str::<Event>(&seq).unwrap(), e);
    }

    #[test]
    fn a_negative_or_textual_time_is_refused() {
        let json = serde_json::to_string(&moved()).unwrap();
        for bad in ["-1", r#""20s""#, "1.5"] {
            let text = json.replace("20002077080", bad);
            assert!(serde_json::from_str::<Event>(&text).is_err(), "{bad} read as a time");
        }
    }
}
