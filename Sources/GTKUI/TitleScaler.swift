import CGTK
import GameRules

/// Keeps a screen's title line in step with the room the screen has, as the board's marks are.
///
/// A picture nobody sees lies over the screen at the screen's own size (an overlay does not
/// measure it), so its size follows the window and never the title: the title's font changes
/// with the window and cannot feed back into the size that chose it.
package final class TitleScaler {
  /// The screen with the picture over it.
  package let root: Element
  /// The font size the title has now, in pixels.
  package private(set) var fontSize = 0

  private let probe = Canvas()

  init(_ content: Element, title: Label) {
    let overlay = Overlay()
    overlay.setChild(content)
    overlay.addOverlay(probe)
    root = overlay
    probe.onDraw { [weak self, weak title] _, width, height in
      guard let self, let title else { return }
      let size = Self.fontSize(width: width, height: height)
      guard size != self.fontSize else { return }
      self.fontSize = size
      // Not while GTK paints: a label resized in the middle of a frame left the window's
      // picture stale. The next idle moment changes it, and the next frame shows it.
      whenIdle { [weak title] in title?.setFontSize(pixels: size) }
    }
  }

  /// The title's font size for a screen of `width` by `height` pixels: a twenty-fourth of the
  /// room the board gets (the smaller of the width and most of the height), from 16 to 56.
  nonisolated package static func fontSize(width: Double, height: Double) -> Int {
    let room = min(width, height * 0.8)
    return Int(min(max(room / 24, 16), 56).rounded())
  }
}

/// The arrow keys on a board of buttons: the focus moves from cell to cell, stopping at the edges.
enum BoardFocus {
  /// Moves the focus from the focused cell one step as `keyval` says; returns whether the key
  /// was an arrow key used for that.
  static func move(in cells: [[Button]], keyval: UInt32) -> Bool {
    let step: (row: Int, column: Int)
    switch Int32(keyval) {
    case GDK_KEY_Up, GDK_KEY_KP_Up: step = (-1, 0)
    case GDK_KEY_Down, GDK_KEY_KP_Down: step = (1, 0)
    case GDK_KEY_Left, GDK_KEY_KP_Left: step = (0, -1)
    case GDK_KEY_Right, GDK_KEY_KP_Right: step = (0, 1)
    default: return false
    }
    guard let focused = focusedCell(in: cells) else { return false }
    let row = min(max(focused.row + step.row, 0), cells.count - 1)
    let column = min(max(focused.column + step.column, 0), cells[row].count - 1)
    cells[row][column].grabFocus()
    return true
  }

  /// The cell holding the keyboard focus, if any.
  static func focusedCell(in cells: [[Button]]) -> Cell? {
    for (row, buttons) in cells.enumerated() {
      for (column, button) in buttons.enumerated() where button.isFocused {
        return Cell(row: row, column: column)
      }
    }
    return nil
  }
}
