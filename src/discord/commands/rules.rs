//! The short rules summary of each game, as /rules shows it.

use crate::discord::format::options::GameChoice;
use crate::discord::shared::lookups::ephemeral;
use crate::discord::{Context, Error};
use crate::games::GameKind;

pub fn rules_summary(game: GameKind) -> &'static str {
    match game {
        GameKind::Chess => {
            "**Chess**: standard FIDE rules. Type moves in SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI \
             (e2e4). Checkmate wins; stalemate, threefold repetition, the fifty-move rule and dead \
             positions draw automatically. Use /draw to offer a draw and /resign to resign."
        }
        GameKind::Enthralling => {
            "**Enthralling Chess**: chess where, from your fourth move on, every move is followed \
             by **Enthrall** (take an opponent's piece other than king or queen onto an empty \
             starting square of that type on your side: `Nf3 enthrall Nc6 g1`) or **Liberate** \
             (remove one of your own pieces the opponent holds, except the one they enthralled \
             most recently: `Qd2 liberate Bc8`). Leave the opponent a lone king after your move \
             to win; if you can neither enthrall nor liberate, the game is drawn."
        }
        GameKind::Enprise => {
            "**En Prise** (2-4 players): build the board while you play. Each turn, place your \
             next battleplan card on a new square touching the board (`N@1,0`; a pawn may go \
             face-down as a vacant square: `P@1,0 down`; a piece may also go onto a vacant \
             square) or move a piece over existing squares (`Q 0,0 to 2,2`, capture `Q 0,0 x \
             2,2`). Pawns never move. Squares are x,y from the first card. Summon your king \
             (`K@x,y`) once 6 vacant squares exist; then everyone must. Checkmate, stalemate or \
             shuttling a piece six moves in a row puts a player out; the last one standing wins. \
             Variants: variant=blind|memory|casino, alliance=true (four players)."
        }
        GameKind::Echek => {
            "**Echek n°1**: six pieces a side, no board: every piece must fit in one 4x4 window, \
             and each colour stays one group (touching by sides or corners). Each turn, put a \
             piece from your supply next to your own (`N@1,1`; never beside the enemy king), or \
             move one (`Q 0,0 to 2,2`); nothing is ever captured. Queen: leaves when surrounded. \
             Rook: once, `swap` it with your king. Bishop: sends a piece back to its supply as it \
             arrives (`B@1,1 return 0,2`). Pawn: may step as it arrives (`P@1,1 to 1,2`). Surround \
             the enemy king on all eight sides (pieces or the limit) to win."
        }
        GameKind::Snipe => {
            "**Snipe Chess**: a 10x10 forest of 2x2 cards. First each player places a king and \
             four pawns on their home row of cards, one per card (`K@c1`, `P@e2`; option \
             auto=true places them at random). Then move one piece any distance in a straight \
             line (`Kc1-c4`): through your own pieces but never onto them, never through trees \
             or the opponent; nothing is captured. End a move on a rotation space to turn cards, \
             pieces and all: a king up to three, a pawn one (`rotate c3 cw`, `ccw`, or `180` on a \
             180 space; `done` to stop). A king with no free space beside it (trees, pieces, \
             edge) loses. Options: last_chance=true, feather=true."
        }
        GameKind::Chessatete => {
            "**Chess-à-Tête**: a card game of chess pieces. Your King starts on your board; \
             you hold seven cards. Each turn, up to three actions: put piece cards on your board \
             (`play Knight`; limits: one queen, two each of knights, bishops and rooks, eight \
             pawns; pawns use a stronger second ability when their match is already there), \
             play action cards (`play Spy`, `play Medic on Peasant`), one combat card \
             (`attack Fork with Knight, Knight, Peasant`), and at the end burn cards to draw new \
             ones (`burn Skirmish`), then `end` to draw back to seven. The defender answers an \
             attack with `defend ...`, `play Block` or `take`, and picks the pieces lost \
             (`lose Bishop, Peasant`). Win by an attack stronger than the whole enemy board \
             (the King's 7 hit points included), by the Checkmate card, or when the opponent \
             cannot draw back to seven. /view shows your hand privately."
        }
    }
}

/// A short summary of a game's rules.
#[poise::command(slash_command)]
pub async fn rules(
    ctx: Context<'_>,
    #[description = "Which game"] game: GameChoice,
) -> Result<(), Error> {
    ephemeral(ctx, rules_summary(game.kind())).await
}
