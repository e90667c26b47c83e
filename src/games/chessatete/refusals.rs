//! Why a Chess-à-Tête action is refused: one reason, the one that applies, in plain words (with
//! the way to write what is allowed when that helps).

use super::deck::{CardKind, Effect, Need, PieceKind, Recall, Timing};
use super::{
    ACTIONS, AMBUSHED, Action, CardId, ChessATete, Phase, card, combat, limit, names, notation,
    piece_kind,
};
use crate::games::chess::Color;

/// Why a player who has burned a card may not play one.
const BURNED: &str = "after burning you may only burn more cards or end the turn";
/// Why a player who has used the turn's actions may do nothing but end it.
const USED: &str = "you have used your three actions this turn: end the turn";

impl ChessATete {
    /// Why `color` may not take `action` now.
    pub(super) fn why_illegal(&self, color: Color, action: &Action) -> String {
        // A card named from the hand must be in it (when the moment is one for such a card).
        let named = match (&self.phase, action) {
            (_, Action::Play(id) | Action::PlayOn { card: id, .. }) => Some(id),
            (Phase::Main, Action::Burn(id)) => Some(id),
            // A second attack is refused as such, whether or not the card is at hand.
            (Phase::Main, Action::Attack { combat: id, .. }) if !self.budget.combat => Some(id),
            (Phase::Defend(_), Action::Defend { combat: id, .. }) => Some(id),
            _ => None,
        };
        if let Some(id) = named.filter(|id| !self.side(color).hand.contains(id))
            && !matches!(self.phase, Phase::Damage { .. })
        {
            return format!("there is no {} in your hand", card(*id).name);
        }
        match &self.phase {
            Phase::Defend(attack) => self.why_not_answer(color, action, attack.power),
            Phase::Damage { amount } => self.why_not_absorb(color, action, *amount),
            Phase::Main => self.why_not_on_turn(color, action),
        }
    }

    /// Why the defender may not answer an attack of `power` with `action`.
    fn why_not_answer(&self, color: Color, action: &Action, power: u32) -> String {
        let ambushed = self.defend_bonus > 0;
        match *action {
            Action::Defend { combat, ref pieces } => self
                .why_not_combat(color, combat, pieces, power)
                .unwrap_or_else(|| "that defence is not possible".into()),
            Action::Take if ambushed => AMBUSHED.into(),
            Action::Play(id) | Action::PlayOn { card: id, .. } => {
                let c = card(id);
                match c.kind {
                    CardKind::Action {
                        timing: Timing::OutOfTurn,
                        effect: Effect::DefendPower(_),
                    } if ambushed => format!("{} is played once a battle", c.name),
                    CardKind::Action {
                        timing: Timing::OutOfTurn,
                        effect: Effect::DefendPower(n),
                    } => format!(
                        "even with {}'s +{n}, no combat card in your hand can defend against \
                         power {power} from your board",
                        c.name
                    ),
                    CardKind::Action {
                        timing: Timing::OutOfTurn,
                        ..
                    } if ambushed => AMBUSHED.into(),
                    CardKind::Checkmate { conditions } => self
                        .checkmate_lacks(color, conditions)
                        .unwrap_or_else(|| "that is not possible now".into()),
                    CardKind::Combat { .. } => self.combat_play_hint(color, id, "defend"),
                    _ => format!(
                        "{} is played on your own turn, not in answer to an attack",
                        c.name
                    ),
                }
            }
            _ => self.answer_hint(power),
        }
    }

    /// What the defender must do against an attack of `power`.
    fn answer_hint(&self, power: u32) -> String {
        if self.defend_bonus > 0 {
            format!(
                "answer the attack first: you played Ambush, so defend with a combat card of \
                 power {power} or more"
            )
        } else {
            format!(
                "answer the attack first: defend with a combat card of power {power} or more, \
                 or take it"
            )
        }
    }

    /// Why `action` does not absorb `amount` damage: the total the pieces must be worth, with
    /// the ways to lose it.
    fn why_not_absorb(&self, color: Color, action: &Action, amount: u32) -> String {
        let (total, ways) = self.absorb(color, amount);
        let options = ways
            .iter()
            .map(|w| format!("lose {}", names(w)))
            .collect::<Vec<_>>()
            .join(", or ");
        let Action::Lose(pieces) = action else {
            return format!("first choose the pieces that absorb the {amount} damage: {options}");
        };
        if pieces
            .iter()
            .any(|&id| piece_kind(id) == Some(PieceKind::King))
        {
            return "the King is never lost to damage".into();
        }
        if let Some(missing) = self.not_on_board(color, pieces) {
            return missing;
        }
        if total == amount {
            format!("lose pieces worth exactly {amount} hit points: {options}")
        } else {
            format!(
                "no pieces of yours add up to {amount} hit points, so lose pieces worth \
                 {total}: {options}"
            )
        }
    }

    /// The first of `pieces` that `color`'s board does not hold (as many times as named).
    fn not_on_board(&self, color: Color, pieces: &[CardId]) -> Option<String> {
        let board = &self.side(color).board;
        pieces.iter().find_map(|&id| {
            let named = pieces.iter().filter(|&&p| p == id).count();
            let there = board.iter().filter(|&&b| b == id).count();
            let name = &card(id).name;
            match there {
                _ if there >= named => None,
                0 => Some(format!("your board has no {name}")),
                _ => Some(format!(
                    "your board holds only {} {name}{}",
                    there,
                    if there == 1 { "" } else { "s" }
                )),
            }
        })
    }

    /// Why `color` may not take `action` on its own turn.
    fn why_not_on_turn(&self, color: Color, action: &Action) -> String {
        let b = &self.budget;
        match *action {
            Action::Defend { .. } | Action::Take => "there is no attack to answer".into(),
            Action::Lose(_) => "there is no damage to absorb".into(),
            Action::Attack { combat, ref pieces } => {
                if b.combat {
                    "you have already attacked this turn (one combat card a turn)".into()
                } else if b.burned > 0 {
                    BURNED.into()
                } else if b.actions >= ACTIONS {
                    USED.into()
                } else {
                    self.why_not_combat(color, combat, pieces, 0)
                        .unwrap_or_else(|| "that attack is not possible".into())
                }
            }
            Action::Play(id) | Action::PlayOn { card: id, .. } => {
                let target = match *action {
                    Action::PlayOn { target, .. } => Some(target),
                    _ => None,
                };
                self.why_not_play(color, id, target)
            }
            Action::Burn(_) if b.actions >= ACTIONS => USED.into(),
            Action::Burn(_) => "play at least one card before burning".into(),
            Action::End => "play at least one card before ending the turn".into(),
        }
    }

    /// Why `color` may not play `id` (on `target`, if named) on its own turn.
    fn why_not_play(&self, color: Color, id: CardId, target: Option<CardId>) -> String {
        let c = card(id);
        let b = &self.budget;
        if let CardKind::Combat { .. } = c.kind {
            return self.combat_play_hint(color, id, "attack");
        }
        if b.burned > 0 {
            return BURNED.into();
        }
        if b.actions >= ACTIONS {
            return USED.into();
        }
        match c.kind {
            CardKind::Checkmate { conditions } => {
                if let Some(lacks) = self.checkmate_lacks(color, conditions) {
                    return lacks;
                }
            }
            CardKind::Action {
                timing: Timing::OutOfTurn,
                ..
            } => return format!("{} is played when your opponent attacks you", c.name),
            CardKind::Piece { .. } if !self.fits_board(color, id) => {
                return self.full(id);
            }
            _ => {}
        }
        let ways = self.plays(color, id);
        let effect = match c.kind {
            CardKind::Action { effect, .. } => Some(effect),
            CardKind::Piece { .. } => self.ability(color, id),
            _ => None,
        };
        let graveyard = &self.side(color).graveyard;
        let them = color.other();
        match (effect, target) {
            (_, None) if ways.iter().any(|w| matches!(w, Action::PlayOn { .. })) => format!(
                "say which card {} takes: {}",
                c.name,
                ways.iter()
                    .map(notation::format)
                    .collect::<Vec<_>>()
                    .join(", or ")
            ),
            (Some(Effect::Recall(_) | Effect::Revive), Some(t)) if !graveyard.contains(&t) => {
                format!("your graveyard holds no {}", card(t).name)
            }
            (Some(Effect::Recall(Recall::Pawn)), Some(_)) => format!(
                "this {0} takes back only a pawn (a {0} played while another is on your board \
                 takes back any piece)",
                c.name
            ),
            (Some(Effect::Recall(Recall::Piece)), Some(_)) => {
                format!("{} takes back only a piece card", c.name)
            }
            (Some(Effect::Revive), Some(t)) if piece_kind(t).is_none() => format!(
                "{} brings back a piece card, and {} is not one",
                c.name,
                card(t).name
            ),
            (Some(Effect::Revive), Some(t)) => self.full(t),
            (Some(Effect::Revive), None) => {
                if graveyard.iter().any(|&g| piece_kind(g).is_some()) {
                    "no piece in your graveyard fits your board: each kind there is at its limit"
                        .into()
                } else {
                    format!("your graveyard holds no piece for {} to bring back", c.name)
                }
            }
            (Some(Effect::RemoveOngoing), Some(t)) => {
                format!("{} has no {} in play", them.name(), card(t).name)
            }
            (Some(Effect::RemoveOngoing), None) => format!(
                "{} has no ongoing card in play for {} to remove",
                them.name(),
                c.name
            ),
            (_, Some(_)) => format!("{0} takes no other card: write play {0}", c.name),
            _ => "that is not possible now".into(),
        }
    }

    /// Why a piece like `id` cannot join a board: its kind is at the limit.
    fn full(&self, id: CardId) -> String {
        match piece_kind(id) {
            Some(kind) => format!(
                "your board already holds {} {}{} (the limit)",
                limit(kind),
                kind.name(),
                if limit(kind) > 1 { "s" } else { "" }
            ),
            None => "that is not possible now".into(),
        }
    }

    /// What to say when a combat card is played like another card: the way to `verb` with it,
    /// or why it cannot.
    fn combat_play_hint(&self, color: Color, id: CardId, verb: &str) -> String {
        let name = &card(id).name;
        let pieces = combat::mobilisations(id, &self.side(color).board)
            .into_iter()
            .next()
            .unwrap_or_default();
        let action = if verb == "attack" {
            Action::Attack { combat: id, pieces }
        } else {
            Action::Defend { combat: id, pieces }
        };
        if self.legal(color).contains(&action) {
            format!(
                "{name} is a combat card: {verb} with it ({})",
                notation::format(&action)
            )
        } else {
            let why = self.why_illegal(color, &action);
            let why = match why.strip_prefix(name.as_str()) {
                Some(rest) => format!("it{rest}"),
                None => why,
            };
            format!("{name} is a combat card, played to {verb}, and {why}")
        }
    }

    /// Why `color` cannot play `combat` with `pieces` (needing a total power of `min` or more,
    /// bonuses counted), if it cannot: the first of the card, the board, the pieces named and
    /// the power that is at fault.
    pub(super) fn why_not_combat(
        &self,
        color: Color,
        combat: CardId,
        pieces: &[CardId],
        min: u32,
    ) -> Option<String> {
        let c = card(combat);
        let CardKind::Combat { needs, .. } = &c.kind else {
            return Some(format!("{} is not a combat card", c.name));
        };
        let ways = combat::mobilisations(combat, &self.side(color).board);
        if ways.is_empty() {
            return Some(format!(
                "{} needs {} on your board",
                c.name,
                needs_words(needs)
            ));
        }
        let best = ways
            .iter()
            .map(|w| self.power(color, combat, w))
            .max()
            .unwrap_or(0);
        if best < min {
            return Some(format!(
                "{} has power {best}; a defence needs {min} or more",
                c.name
            ));
        }
        if let Some(missing) = self.not_on_board(color, pieces) {
            return Some(missing);
        }
        if !ways.iter().any(|w| w == pieces) {
            return Some(format!(
                "{} do not match what {} needs: {}",
                if pieces.is_empty() {
                    "no pieces".to_string()
                } else {
                    names(pieces)
                },
                c.name,
                needs_words(needs)
            ));
        }
        let power = self.power(color, combat, pieces);
        (power < min).then(|| {
            format!(
                "{} with {} has power {power}; a defence needs {min} or more",
                c.name,
                names(pieces)
            )
        })
    }
}

/// A combat card's requirements in words: "two knights and a pawn", "a queen, a knight or
/// bishop and a rook or knight".
pub(super) fn needs_words(needs: &[Vec<Need>]) -> String {
    let mut lines: Vec<(&Vec<Need>, usize)> = Vec::new();
    for line in needs {
        match lines.iter_mut().find(|(l, _)| *l == line) {
            Some((_, n)) => *n += 1,
            None => lines.push((line, 1)),
        }
    }
    let parts: Vec<String> = lines
        .into_iter()
        .map(|(line, n)| {
            let kinds: Vec<String> = line
                .iter()
                .map(|need| {
                    let word = need.describe();
                    if n > 1 { format!("{word}s") } else { word }
                })
                .collect();
            let count = match n {
                1 if kinds[0].starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) => {
                    "an".to_string()
                }
                1 => "a".to_string(),
                2 => "two".to_string(),
                3 => "three".to_string(),
                4 => "four".to_string(),
                _ => n.to_string(),
            };
            format!("{count} {}", kinds.join(" or "))
        })
        .collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "nothing".into(),
    }
}
