//! Records written before acts had their `[%act]` form carry them as prose comments, joined by
//! `; ` — `arbiter alice: set the position …`, `server: paused the clocks`, `white-A called the
//! arbiter`. This reads the parts that change what a reader must replay (the position, the
//! clocks) leniently back into acts, so such records still replay as the players had them; every
//! other part stays commentary. Such records have no match times: their acts have none.

use crate::act::{Act, ActKind};
use crate::act_text::parse_seat;

/// The acts a prose comment names, and the parts that are not acts (joined again by `; `).
pub(crate) fn read(comment: &str) -> (Vec<Act>, String) {
    let mut acts = Vec::new();
    let mut rest = Vec::new();
    for part in comment.split("; ") {
        match read_part(part) {
            Some(act) => acts.push(act),
            None => rest.push(part),
        }
    }
    (acts, rest.join("; "))
}

/// One part: `WHO: WHAT` by an arbiter or the server, or a seat's call.
fn read_part(part: &str) -> Option<Act> {
    if let Some((seat, rest)) = part.split_once(' ')
        && let Some(seat) = parse_seat(seat)
        && rest.starts_with("called the arbiter")
    {
        return Some(Act::new(ActKind::Call { seat, replay: None }));
    }
    let (who, what) = part.split_once(": ")?;
    let by = match who {
        "server" => Some("(server)".to_owned()),
        "arbiter" => None,
        "arbiter (secret)" => Some("(secret)".to_owned()),
        _ => Some(who.strip_prefix("arbiter ")?.to_owned()),
    };
    let kind = if what == "paused the clocks" {
        ActKind::Pause
    } else if what == "restarted the clocks" {
        ActKind::Resume
    } else if let Some(bfen) = what.strip_prefix("set the position ") {
        ActKind::SetPosition { position: bfen.to_owned() }
    } else if let Some(rest) = what.strip_prefix("took back the last move on board ") {
        let board = bughouse::BoardId::from_char(rest.chars().next()?)?;
        ActKind::TakeBack { board, position: None }
    } else if let Some(note) = what.strip_prefix("annulled the match: ") {
        ActKind::Annul { note: note.to_owned() }
    } else {
        let (verb, rest) = what.split_once(' ')?;
        let sign = match verb {
            "added" => 1,
            "removed" => -1,
            _ => return None,
        };
        let (ms, rest) = rest.split_once(" ms on ")?;
        let seat = parse_seat(rest.strip_suffix("'s clock")?)?;
        ActKind::Adjust { seat, delta_ms: sign * ms.parse::<i64>().ok()? }
    };
    Some(Act { by, ..Act::new(kind) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bughouse::{BoardId, Seat};

    #[test]
    fn the_old_prose_reads_as_acts() {
        let (acts, rest) = read(
            "arbiter alice: added 60000 ms on white-A's clock; a fine move; server: paused the clocks; \
             arbiter (secret): took back the last move on board B (5B. P@d5); black-B called the arbiter",
        );
        let kinds: Vec<_> = acts.iter().map(|a| (a.kind.clone(), a.by.clone())).collect();
        assert_eq!(
            kinds,
            vec![
                (ActKind::Adjust { seat: Seat::ALL[0], delta_ms: 60_000 }, Some("alice".into())),
                (ActKind::Pause, Some("(server)".into())),
                (ActKind::TakeBack { board: BoardId::B, position: None }, Some("(secret)".into())),
                (ActKind::Call { seat: Seat::ALL[3], replay: None }, None),
            ]
        );
        assert_eq!(rest, "a fine move");
        let (acts, _) = read("arbiter bob: removed 1500 ms on black-A's clock");
        assert_eq!(acts[0].kind, ActKind::Adjust { seat: Seat::ALL[1], delta_ms: -1_500 });
    }
}
