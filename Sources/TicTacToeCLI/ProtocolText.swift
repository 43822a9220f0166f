import GameRules

extension String {
  /// The line as the brains' protocols (GTP, Gomocup) read it: a tab becomes a space and every
  /// character that does not print is dropped.
  ///
  /// Dropping them, rather than the C0 controls alone, keeps a C1 control (U+009B is a
  /// one-character CSI to many terminals), a direction override or a zero-width character out
  /// of every answer that quotes the line back.
  var protocolText: String {
    String(
      unicodeScalars.compactMap { scalar -> Character? in
        if scalar == "\t" { return " " }
        return scalar.isPrintable ? Character(scalar) : nil
      })
  }
}
