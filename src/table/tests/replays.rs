//! Replays: a match's spectator views from its start, the last one as the match ended, and
//! nothing hidden in any of them.

use super::fixture;
use super::*;

#[test]
fn a_replay_has_a_view_per_action_and_ends_as_the_match_did() {
    let mut f = fixture(GameKind::Chess);
    let start = f.table.view_for(f.id, None).unwrap();
    assert_eq!(
        f.table.replay_views(f.id).unwrap(),
        std::slice::from_ref(&start)
    );
    for (player, text) in [(&f.alice, "f3"), (&f.bob, "e5"), (&f.alice, "g4")] {
        f.table.act(f.id, player.id, None, text).unwrap();
    }
    let before_resigning = f.table.view_for(f.id, None).unwrap();
    f.table.resign(f.id, f.alice.id, None).unwrap();
    let views = f.table.replay_views(f.id).unwrap();
    assert_eq!(views.len(), 4);
    assert_eq!(views[0], start);
    // The last view is the match as it ended: the position after g4, with the resignation.
    let end = f.table.view_for(f.id, None).unwrap();
    assert_eq!(views[3], end);
    assert_ne!(views[3], before_resigning);
    assert_ne!(views[1], views[2]);
}

#[test]
fn a_replay_of_a_card_game_shows_no_hand() {
    let mut f = fixture(GameKind::Chessatete);
    for _ in 0..12 {
        let shown = f.table.show(f.id).unwrap();
        let Some((_, player)) = shown.to_act.first().cloned() else {
            break;
        };
        let choices = f.table.legal(f.id, player.id).unwrap();
        f.table.act(f.id, player.id, None, &choices[0]).unwrap();
    }
    let views = f.table.replay_views(f.id).unwrap();
    assert!(views.len() > 1);
    for view in &views {
        let AnyView::Chessatete(v) = view else {
            panic!("a Chess-à-Tête view");
        };
        assert!(v.sides.iter().all(|s| s.hand.is_none()), "{v:?}");
        assert!(v.sides.iter().any(|s| s.hand_size > 0));
    }
}
