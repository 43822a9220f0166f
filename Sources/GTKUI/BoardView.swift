import CGTK
public import GameCore
public import GameRules

#if ADWAITA
import CAdw
#endif

/// The board: one drawn picture over a grid of invisible, focusable push buttons.
///
/// The picture (``BoardPainter``) shows the lines, the marks, the last move, the winning line,
/// the hint and the analysis, sized from the window. The buttons underneath keep what
/// assistive technologies and the keyboard need: each cell's accessible name and description
/// from the core, the push button role, the click action, focus and Enter or Space to play.
/// Hover, press and visible focus are read back from the buttons' states and drawn.
public final class BoardView {
  /// The board's top widget.
  public let root: Widget
  /// The cells' buttons, row by row.
  public private(set) var cells: [[Widget]] = []
  /// How long a new mark takes to appear, in microseconds.
  public static let placementDuration: Int = 200_000

  private let canvas: Widget
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
    root = gtk_overlay_new()
    gtk_widget_add_css_class(root, "drawn-board")
    canvas = makePresentationDrawingArea()
    // The picture lies over the buttons but lets the pointer through to them.
    gtk_widget_set_can_target(canvas, 0)
    gtk_widget_set_can_focus(canvas, 0)
    gtk_overlay_add_overlay(OpaquePointer(root), canvas)
    Self.installStyle()
    setDrawFunction(canvas) { [weak self] context, width, height in
      self?.draw(context, width: Double(width), height: Double(height))
    }
  }

  /// Shows the core's cells; `mover` is the mark a person would place now, if any.
  public func render(_ rows: [[CellPresentation]], mover: Mark?, isThinking: Bool) {
    let rowCount = rows.count
    let columnCount = rows.first?.count ?? 0
    if cells.count != rowCount || cells.first?.count != columnCount {
      build(rows: rowCount, columns: columnCount)
      placementStarts.removeAll()
    } else if Self.animationsEnabled {
      let now = g_get_monotonic_time()
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
    gtk_widget_queue_draw(canvas)
  }

  /// What the board shows now, including hover, press, focus and placements under way.
  package func picture(at time: Int = g_get_monotonic_time()) -> BoardPicture {
    var picture = BoardPicture(rows: rows, mover: mover)
    picture.isThinking = isThinking
    for (row, buttons) in cells.enumerated() {
      for (column, button) in buttons.enumerated() {
        let flags = gtk_widget_get_state_flags(button).rawValue
        let cell = Cell(row: row, column: column)
        if flags & GTK_STATE_FLAG_PRELIGHT.rawValue != 0 { picture.hovered = cell }
        if flags & GTK_STATE_FLAG_ACTIVE.rawValue != 0 { picture.pressed = cell }
        let focus = GTK_STATE_FLAG_FOCUSED.rawValue | GTK_STATE_FLAG_FOCUS_VISIBLE.rawValue
        if flags & focus == focus { picture.focused = cell }
      }
    }
    for (cell, start) in placementStarts {
      let progress = Double(time - start) / Double(Self.placementDuration)
      if progress < 1 { picture.placement[cell] = max(0, progress) }
    }
    return picture
  }

  /// The theme's colours for the board, with GNOME's where the theme names none.
  package func palette() -> BoardPalette {
    let style = gtk_widget_get_style_context(canvas)
    let fallback = BoardPalette.light
    func named(_ names: [String], _ otherwise: RGBA) -> RGBA {
      var color = GdkRGBA()
      for name in names where gtk_style_context_lookup_color(style, name, &color) != 0 {
        return RGBA(color)
      }
      return otherwise
    }
    var foreground = GdkRGBA()
    gtk_style_context_get_color(style, &foreground)
    var palette = BoardPalette(
      surface: named(["card_bg_color", "view_bg_color", "theme_base_color"], fallback.surface),
      foreground: RGBA(foreground),
      x: named(["accent_color", "theme_selected_bg_color"], fallback.x),
      o: named(["error_color"], fallback.o),
      accent: named(["accent_color", "theme_selected_bg_color"], fallback.accent),
      success: named(["success_color"], fallback.success),
      failure: named(["error_color"], fallback.failure))
    if Self.prefersHighContrast { palette.lineStrength = 0.9 }
    return palette
  }

  /// Whether the desktop asks for high contrast (libadwaita's style manager knows).
  private static var prefersHighContrast: Bool {
    #if ADWAITA
    guard adw_is_initialized() != 0 else { return false }
    return adw_style_manager_get_high_contrast(adw_style_manager_get_default()) != 0
    #else
    return false
    #endif
  }

  private func draw(_ context: OpaquePointer, width: Double, height: Double) {
    BoardPainter.paint(picture(), palette: palette(), on: context, width: width, height: height)
  }

  private func render(_ button: Widget, _ cell: CellPresentation) {
    setAccessibleName(button, cell.accessibleName)
    // The hint and the analysis are drawn; screen readers hear them on the cell.
    setAccessibleDescription(button, cell.accessibleDescription)
    if isAccessibleDisabled(button) == cell.isEnabled {
      cgtk_set_accessible_disabled(button, cell.isEnabled ? 0 : 1)
    }
    if hasClass(button, "playable") != cell.isEnabled {
      gtk_widget_set_cursor_from_name(button, cell.isEnabled ? "pointer" : nil)
      setClass(button, "playable", cell.isEnabled)
    }
    setClass(button, "x", cell.label == Mark.x.symbol)
    setClass(button, "o", cell.label == Mark.o.symbol)
    setClass(button, "winning", cell.isWinning)
    setClass(button, "last-move", cell.isLastMove)
    setClass(button, "hint", cell.isHint)
  }

  private func build(rows: Int, columns: Int) {
    let grid: Widget = gtk_grid_new()
    gtk_grid_set_row_homogeneous(cgtk_grid(grid), 1)
    gtk_grid_set_column_homogeneous(cgtk_grid(grid), 1)
    cells = (0..<rows).map { row in
      (0..<columns).map { column in
        // Every cell stays focusable so arrows can walk the board; occupied or waiting cells are
        // marked disabled for assistive technologies, and the core ignores them.
        let button: Widget = gtk_button_new()
        gtk_widget_add_css_class(button, "board-cell")
        gtk_widget_set_hexpand(button, 1)
        gtk_widget_set_vexpand(button, 1)
        let cell = Cell(row: row, column: column)
        connect(button, "clicked") { [send] in send(cell) }
        onStateFlagsChanged(button) { [canvas] in gtk_widget_queue_draw(canvas) }
        gtk_grid_attach(cgtk_grid(grid), button, Int32(column), Int32(row), 1, 1)
        return button
      }
    }
    gtk_overlay_set_child(OpaquePointer(root), grid)
  }

  private func startTicking() {
    guard !isTicking else { return }
    isTicking = true
    addTickCallback(canvas) { [weak self] in
      guard let self else { return false }
      let now = g_get_monotonic_time()
      self.placementStarts = self.placementStarts.filter { now - $0.value < Self.placementDuration }
      gtk_widget_queue_draw(self.canvas)
      self.isTicking = !self.placementStarts.isEmpty
      return self.isTicking
    }
  }

  /// Whether the desktop lets widgets animate (`gtk-enable-animations`).
  private static var animationsEnabled: Bool {
    guard let settings = gtk_settings_get_default() else { return false }
    var value = GValue()
    g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
    defer { g_value_unset(&value) }
    g_object_get_property(
      UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self),
      "gtk-enable-animations", &value)
    return g_value_get_boolean(&value) != 0
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
    guard !isStyleInstalled, let display = gdk_display_get_default() else { return }
    isStyleInstalled = true
    let provider = gtk_css_provider_new()
    gtk_css_provider_load_from_data(provider, css, -1)
    gtk_style_context_add_provider_for_display(
      display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
  }
}

extension RGBA {
  init(_ color: GdkRGBA) {
    self.init(
      red: Double(color.red), green: Double(color.green), blue: Double(color.blue),
      alpha: Double(color.alpha))
  }
}

// MARK: - GTK calls with callbacks of their own shape

/// Carries a draw closure through `gtk_drawing_area_set_draw_func`'s `user_data`.
private final class DrawBox {
  let handler: (OpaquePointer, Int32, Int32) -> Void
  init(_ handler: @escaping (OpaquePointer, Int32, Int32) -> Void) { self.handler = handler }
}

/// Carries a tick closure, which returns whether to keep ticking.
private final class TickBox {
  let handler: () -> Bool
  init(_ handler: @escaping () -> Bool) { self.handler = handler }
}

private nonisolated let drawTrampoline:
  @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?)
    -> Void = { _, context, width, height, data in
      guard let context, let data else { return }
      nonisolated(unsafe) let cairo = context
      let box = Unmanaged<DrawBox>.fromOpaque(data).takeUnretainedValue()
      MainActor.assumeIsolated { box.handler(cairo, width, height) }
    }

private nonisolated let releaseDrawBox: @convention(c) (gpointer?) -> Void = { data in
  if let data { Unmanaged<DrawBox>.fromOpaque(data).release() }
}

private nonisolated let tickTrampoline:
  @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, _, data in
    guard let data else { return 0 }
    let box = Unmanaged<TickBox>.fromOpaque(data).takeUnretainedValue()
    return MainActor.assumeIsolated { box.handler() } ? 1 : 0
  }

private nonisolated let releaseTickBox: @convention(c) (gpointer?) -> Void = { data in
  if let data { Unmanaged<TickBox>.fromOpaque(data).release() }
}

// `state-flags-changed` passes the previous flags before `user_data`.
private nonisolated let stateFlagsTrampoline:
  @convention(c) (gpointer?, GtkStateFlags, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
  }

private nonisolated let releaseStateBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<SignalBox>.fromOpaque(data).release() }
  }

private func drawingArea(_ widget: Widget) -> UnsafeMutablePointer<GtkDrawingArea> {
  UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self)
}

/// Draws `widget` with `handler(cairo, width, height)` whenever GTK repaints it.
private func setDrawFunction(
  _ widget: Widget, _ handler: @escaping (OpaquePointer, Int32, Int32) -> Void
) {
  let box = Unmanaged.passRetained(DrawBox(handler)).toOpaque()
  gtk_drawing_area_set_draw_func(drawingArea(widget), drawTrampoline, box, releaseDrawBox)
}

/// Calls `handler` on every frame until it returns false.
private func addTickCallback(_ widget: Widget, _ handler: @escaping () -> Bool) {
  let box = Unmanaged.passRetained(TickBox(handler)).toOpaque()
  gtk_widget_add_tick_callback(widget, tickTrampoline, box, releaseTickBox)
}

/// Calls `handler` when the widget's hover, press, focus or other states change.
private func onStateFlagsChanged(_ widget: Widget, _ handler: @escaping () -> Void) {
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  g_signal_connect_data(
    UnsafeMutableRawPointer(widget), "state-flags-changed",
    unsafeBitCast(stateFlagsTrampoline, to: GCallback.self), box, releaseStateBox,
    GConnectFlags(rawValue: 0))
}

/// A drawing area that assistive technologies skip: the buttons under it carry the board.
private func makePresentationDrawingArea() -> Widget {
  var value = GValue()
  g_value_init(&value, gtk_accessible_role_get_type())
  g_value_set_enum(&value, Int32(GTK_ACCESSIBLE_ROLE_PRESENTATION.rawValue))
  defer { g_value_unset(&value) }
  let object = "accessible-role".withCString { name in
    var names: [UnsafePointer<CChar>?] = [name]
    return g_object_new_with_properties(gtk_drawing_area_get_type(), 1, &names, &value)
  }
  guard let object else { preconditionFailure("GTK made no drawing area") }
  return UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self)
}
