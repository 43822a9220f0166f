/// How many columns of a terminal text takes: East Asian wide and fullwidth characters (such as
/// 山, ｗ or 한) and emoji shown as pictures take two, everything else one.
///
/// Layout counts columns, not characters, so that a name in Japanese neither pushes a line past
/// the edge (the terminal would wrap it and scroll the screen) nor misaligns a form.
extension Character {
  /// The columns a terminal gives the character.
  var columns: Int {
    guard let first = unicodeScalars.first, !first.isASCII else { return 1 }
    // An emoji asked to show as a picture (VS16) is as wide as one that shows so by default.
    if unicodeScalars.contains("\u{FE0F}") || first.properties.isEmojiPresentation { return 2 }
    return Self.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
  }

  /// The blocks whose characters are wide or fullwidth (Unicode's East Asian Width W and F)
  /// outside the emoji: Hangul Jamo, CJK radicals, punctuation, kana and ideographs, Yi, Hangul
  /// syllables, compatibility ideographs and forms, fullwidth forms, and the ideographs of the
  /// supplementary planes.
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
    0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
    0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18AFF,
    0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}

extension StringProtocol {
  /// The columns a terminal gives the text.
  var columns: Int { reduce(0) { $0 + $1.columns } }

  /// The longest start of the text that fits in `width` columns.
  func prefix(columns width: Int) -> SubSequence {
    var used = 0
    var end = startIndex
    while end < endIndex, used + self[end].columns <= width {
      used += self[end].columns
      end = index(after: end)
    }
    return self[startIndex..<end]
  }

  /// The text if it fits in `width` columns, or as much of its start as fits with `…` after
  /// it, so that a cut shows.
  func fitted(columns width: Int) -> String {
    guard columns > width else { return String(self) }
    return String(prefix(columns: Swift.max(0, width - 1))) + "…"
  }

  /// The text if it fits in `width` columns, or as much of its end as fits with `…` before
  /// it, as a field shows what is typed at its end.
  func fittedFromTheEnd(columns width: Int) -> String {
    guard columns > width else { return String(self) }
    return "…" + String(suffix(columns: Swift.max(0, width - 1)))
  }

  /// The longest end of the text that fits in `width` columns.
  func suffix(columns width: Int) -> SubSequence {
    var used = 0
    var start = endIndex
    while start > startIndex {
      let previous = index(before: start)
      guard used + self[previous].columns <= width else { break }
      used += self[previous].columns
      start = previous
    }
    return self[start..<endIndex]
  }
}
