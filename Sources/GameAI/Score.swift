/// Search scores, always from the side to move's point of view.
///
/// A win in `p` plies scores `mate - p` and a loss in `p` plies `-(mate - p)`, so a faster win
/// and a slower loss score higher; a draw scores 0; estimates stay well inside `±estimateLimit`.
enum Score {
  static let mate = 1_000
  /// Scores at or beyond this magnitude are proven wins or losses.
  static let provenThreshold = 700
  /// Heuristic estimates are clamped inside this magnitude.
  static let estimateLimit = 600
  static let infinity = 10_000

  static func win(in plies: Int) -> Int { mate - plies }
  static func loss(in plies: Int) -> Int { -(mate - plies) }

  static func isProven(_ score: Int) -> Bool { abs(score) >= provenThreshold }

  /// The score of a move for its maker, given the score of the position after it for the
  /// opponent: one more ply to the end, and the other point of view.
  static func parent(of child: Int) -> Int {
    if child >= provenThreshold { return -(child - 1) }
    if child <= -provenThreshold { return -(child + 1) }
    return -child
  }

  /// Converts a score measured from the root, `ply` plies above, to one measured from here.
  static func toNode(_ score: Int, ply: Int) -> Int {
    if score >= provenThreshold { return score + ply }
    if score <= -provenThreshold { return score - ply }
    return score
  }

  /// Converts a score measured from here to one measured from the root, `ply` plies above.
  static func toRoot(_ score: Int, ply: Int) -> Int {
    if score >= provenThreshold { return score - ply }
    if score <= -provenThreshold { return score + ply }
    return score
  }

  /// The evaluation of a score, with `emptyCells` as the length of a draw.
  ///
  /// With `isExact` the score comes from a complete search; otherwise it is an estimate, and a
  /// clear advantage reads as a likely win or loss.
  static func evaluation(_ score: Int, emptyCells: Int, isExact: Bool) -> Evaluation {
    if score >= provenThreshold {
      return Evaluation(value: .win, plies: mate - score, isExact: isExact)
    }
    if score <= -provenThreshold {
      return Evaluation(value: .loss, plies: mate + score, isExact: isExact)
    }
    if isExact { return Evaluation(value: .draw, plies: emptyCells, isExact: true) }
    let value: GameValue =
      score > estimateLimit / 4 ? .win : score < -estimateLimit / 4 ? .loss : .draw
    return Evaluation(value: value, plies: emptyCells, isExact: false)
  }
}

extension Evaluation {
  /// The evaluation of a forced line a proof found, which may not be the fastest: a win in 1
  /// or a loss in 2 cannot be faster, any longer one may be.
  var asFoundLine: Evaluation {
    var found = self
    found.isFastest = value == .draw || plies <= 2
    return found
  }
}
