/// A line-by-line comparison of two values' dumps, for failure messages.
///
/// Lines only in `expected` start with `−`, lines only in `actual` with `+`, shared lines with a
/// space.
///
/// - Complexity: O(*m* × *n*) in the numbers of lines.
func diff(expected: some Any, actual: some Any) -> String {
  let old = lines(of: expected)
  let new = lines(of: actual)
  // Longest common subsequence, filled from the end so the walk below reads forward.
  var common = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
  for i in stride(from: old.count - 1, through: 0, by: -1) {
    for j in stride(from: new.count - 1, through: 0, by: -1) {
      common[i][j] =
        old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
    }
  }
  var output: [String] = []
  var i = 0
  var j = 0
  while i < old.count || j < new.count {
    if i < old.count, j < new.count, old[i] == new[j] {
      output.append("  \(old[i])")
      i += 1
      j += 1
    } else if i < old.count, j == new.count || common[i + 1][j] >= common[i][j + 1] {
      output.append("− \(old[i])")
      i += 1
    } else {
      output.append("+ \(new[j])")
      j += 1
    }
  }
  return output.joined(separator: "\n")
}

private func lines(of value: some Any) -> [String] {
  var text = ""
  dump(value, to: &text)
  return text.split(separator: "\n", omittingEmptySubsequences: false)
    .map(String.init)
    .filter { !$0.isEmpty }
}
