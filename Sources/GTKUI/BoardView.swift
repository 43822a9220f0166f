public import GameCore
public import GameRules

/// The board: one drawn picture over a grid of invisible, focusable push buttons.
///
/// The picture (``BoardPainter``) shows the lines, the marks, the last move, the winning line,
/// the hint and the analysis, sized from the window. The buttons underneath keep what
/// assistive technologies and the keyboard need: each cell's accessible name and description
/// from the core, the push button role, the click action, focus and Enter or Space to play.
/// Hover, press and visible focus are read back from the buttons' states and drawn.
public final class BoardView {
  /// The board's top widget.
  public var root: Element { overlay }
  /// The cells' buttons, row by row.
  package private(set) var cells: [[Button]] = []
  /// How long a new mark takes to appear, in microseconds.
  public static let placementDuration: Int = 200_000

  private let overlay = Overlay().classes("drawn-board")
  private let canvas = Canvas()
  private let send: (Cell) -> Void
  private var rows: [[CellPresentation]] = []
  private var mover: Mark?
  private var isThinking = false
  /// When each mark still being placed appeared, in the monotonic clock's microseconds.
  private var placementStarts: [Cell: Int] = [:]
  private var isTicking = false

  /// Creates an empty board; `send` receives the cell a player chose.
  public init(send: @escaping (Cell) -> Void) {
    self.send = send
    // The picture lies over the buttons but lets the pointer through to them.
    overlay.addOverlay(canvas)
    Self.installStyle()
    canvas.onDraw { [weak self] context, width, height in
      self?.draw(context, width: width, height: height)
    }
  }

  /// Shows the core's cells; `mover` is the mark a person would place now, if any.
  public func render(_ rows: [[CellPresentation]], mover: Mark?, isThinking: Bool) {
    let rowCount = rows.count
    let columnCount = rows.first?.count ?? 0
    if cells.count != rowCount || cells.first?.count != columnCount {
      build(rows: rowCount, columns: columnCount)
      placementStarts.removeAll()
    } else if Desktop.animationsEnabled {
      let now = Desktop.now
      for (old, new) in zip(self.rows.joined(), rows.joined())
      where old.label.isEmpty && !new.label.isEmpty {
        placementStarts[new.cell] = now
      }
      if !placementStarts.isEmpty { startTicking() }
    }
    self.rows = rows
    self.mover = mover
    self.isThinking = isThinking
    for (row, presentations) in rows.enumerated() {
      for (column, cell) in presentations.enumerated() {
        render(cells[row][column], cell)
      }
    }
    canvas.redraw()
  }

  /// What the board shows now, including hover, press, focus and placements under way.
  package func picture(at time: Int = Desktop.now) -> BoardPicture {
    var picture = BoardPicture(rows: rows, mover: mover)
    picture.isThinking = isThinking
    for (row, buttons) in cells.enumerated() {
      for (column, button) in buttons.enumerated() {
        let interaction = button.interaction
        let cell = Cell(row: row, column: column)
        if interaction.isHovered { picture.hovered = cell }
        if interaction.isPressed { picture.pressed = cell }
        if interaction.hasVisibleFocus { picture.focused = cell }
      }
    }
    for (cell, start) in placementStarts {
      let progress = Double(time - start) / Double(Self.placementDuration)
      if progress < 1 { picture.placement[cell] = max(0, progress) }
    }
    return picture
  }

  /// The theme's colours for the board, with GNOME's where the theme names none.
  package func palette() -> BoardPalette { canvas.themePalette() }

  private func draw(_ context: OpaquePointer, width: Double, height: Double) {
    BoardPainter.paint(picture(), palette: palette(), on: context, width: width, height: height)
  }

  private func render(_ button: Button, _ cell: CellPresentation) {
    button.accessibleName = cell.accessibleName
    // The hint and the analysis are drawn; screen readers hear them on the cell.
    button.accessibleDescription = cell.accessibleDescription
    button.isAccessibleDisabled = !cell.isEnabled
    if button.hasClass("playable") != cell.isEnabled {
      button.setCursor(cell.isEnabled ? "pointer" : nil)
      button.setClass("playable", cell.isEnabled)
    }
    button.setClass("x", cell.label == Mark.x.symbol)
    button.setClass("o", cell.label == Mark.o.symbol)
    button.setClass("winning", cell.isWinning)
    button.setClass("last-move", cell.isLastMove)
    button.setClass("hint", cell.isHint)
  }

  private func build(rows: Int, columns: Int) {
    let grid = Grid(isHomogeneous: true)
    cells = (0..<rows).map { row in
      (0..<columns).map { column in
        // Every cell stays focusable so arrows can walk the board; occupied or waiting cells are
        // marked disabled for assistive technologies, and the core refuses them.
        let cell = Cell(row: row, column: column)
        let button = Button(unlabelled: { [send] in send(cell) }).classes("board-cell")
          .expanding()
        button.onInteractionChange { [canvas] in canvas.redraw() }
        grid.attach(button, row: row, column: column)
        return button
      }
    }
    overlay.setChild(grid)
  }

  private func startTicking() {
    guard !isTicking else { return }
    isTicking = true
    canvas.onEveryFrame { [weak self] in
      guard let self else { return false }
      let now = Desktop.now
      self.placementStarts = self.placementStarts.filter { now - $0.value < Self.placementDuration }
      self.canvas.redraw()
      self.isTicking = !self.placementStarts.isEmpty
      return self.isTicking
    }
  }

  // MARK: - Style

  private static var isStyleInstalled = false

  /// The buttons show nothing of their own: the picture over them is the board.
  private static let css = """
    button.board-cell, button.board-cell:hover, button.board-cell:active,
    button.board-cell:focus, button.board-cell:focus-visible, button.board-cell:disabled {
      background: none; border: none; box-shadow: none; outline: none; border-radius: 0;
      padding: 0; margin: 0; min-width: 16px; min-height: 16px;
    }
    """

  private static func installStyle() {
    guard !isStyleInstalled else { return }
    isStyleInstalled = Window.addStyle(css)
  }
}

extension Canvas {
  /// The theme's colours for drawing, with GNOME's where the theme names none; high contrast
  /// draws lines fully.
  func themePalette() -> BoardPalette {
    let fallback = BoardPalette.light
    func named(_ names: [String], _ otherwise: RGBA) -> RGBA {
      themeColor(names) ?? otherwise
    }
    var palette = BoardPalette(
      surface: named(["card_bg_color", "view_bg_color", "theme_base_color"], fallback.surface),
      foreground: foregroundColor,
      x: named(["accent_color", "theme_selected_bg_color"], fallback.x),
      o: named(["error_color"], fallback.o),
      accent: named(["accent_color", "theme_selected_bg_color"], fallback.accent),
      success: named(["success_color"], fallback.success),
      failure: named(["error_color"], fallback.failure))
    if Desktop.prefersHighContrast { palette.lineStrength = 0.9 }
    return palette
  }
}
