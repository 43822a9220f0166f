import CAdw
import CGTK

// Wrappers for what the drawn board needs: a stack of widgets, a cairo canvas, the buttons'
// pointer and focus states, and the desktop's settings. As in Widgets.swift, each wraps one GTK
// object and owns the closures connected to it.

// MARK: - Containers and canvas

/// One child with other widgets laid over it.
package final class Overlay: Element {
  init() {
    super.init(gtk_overlay_new())
  }

  /// Shows `child` under the overlays; it sets the size.
  func setChild(_ child: Element) { gtk_overlay_set_child(OpaquePointer(widget), child.widget) }

  /// Lays `overlay` over the child, at the child's size.
  func addOverlay(_ overlay: Element) {
    gtk_overlay_add_overlay(OpaquePointer(widget), overlay.widget)
  }
}

extension Element {
  /// Calls `handler` before every frame GTK paints the widget, until it returns false.
  func onEveryFrame(_ handler: @escaping () -> Bool) {
    let box = Unmanaged.passRetained(TickBox(handler)).toOpaque()
    gtk_widget_add_tick_callback(widget, tickTrampoline, box, releaseTickBox)
  }
}

/// Calls `handler` once, when the main loop is next idle: after the frame being drawn, so that
/// what it changes is laid out and painted in the next one.
func whenIdle(_ handler: @escaping () -> Void) {
  let box = Unmanaged.passRetained(IdleBox(handler)).toOpaque()
  g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, idleTrampoline, box, releaseIdleBox)
}

/// A picture drawn with cairo, which assistive technologies skip and the pointer passes through.
package final class Canvas: Element {
  init() {
    super.init(Self.presentationDrawingArea())
    gtk_widget_set_can_target(widget, 0)
    gtk_widget_set_can_focus(widget, 0)
  }

  /// Draws with `handler(cairo, width, height)` whenever GTK repaints the canvas.
  func onDraw(
    _ handler: @escaping (_ cairo: OpaquePointer, _ width: Double, _ height: Double) -> Void
  ) {
    let box = Unmanaged.passRetained(DrawBox(handler)).toOpaque()
    gtk_drawing_area_set_draw_func(
      UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkDrawingArea.self),
      drawTrampoline, box, releaseDrawBox)
  }

  /// Asks GTK to repaint the canvas.
  func redraw() { gtk_widget_queue_draw(widget) }

  /// The first of the theme's named colours that the theme defines.
  func themeColor(_ names: [String]) -> RGBA? {
    let style = gtk_widget_get_style_context(widget)
    var color = GdkRGBA()
    for name in names where gtk_style_context_lookup_color(style, name, &color) != 0 {
      return RGBA(color)
    }
    return nil
  }

  /// The theme's colour for text here.
  var foregroundColor: RGBA {
    var color = GdkRGBA()
    gtk_style_context_get_color(gtk_widget_get_style_context(widget), &color)
    return RGBA(color)
  }

  private static func presentationDrawingArea() -> Widget {
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
}

extension RGBA {
  init(_ color: GdkRGBA) {
    self.init(
      red: Double(color.red), green: Double(color.green), blue: Double(color.blue),
      alpha: Double(color.alpha))
  }
}

// MARK: - Pointer and focus states

/// What the pointer and the keyboard are doing to a widget.
package struct Interaction: Equatable {
  /// The pointer is over it.
  package var isHovered = false
  /// It is being pressed.
  package var isPressed = false
  /// It has the keyboard focus, and the focus is to be shown (the keyboard moved it).
  package var hasVisibleFocus = false
}

extension Button {
  /// A button without a label: what it shows is drawn by someone else.
  convenience init(unlabelled action: @escaping () -> Void) {
    self.init(label: "", action: action)
    gtk_button_set_child(cgtk_button(widget), nil)
  }

  /// What the pointer and keyboard are doing to the button.
  package var interaction: Interaction {
    get {
      let flags = gtk_widget_get_state_flags(widget).rawValue
      let focus = GTK_STATE_FLAG_FOCUSED.rawValue | GTK_STATE_FLAG_FOCUS_VISIBLE.rawValue
      return Interaction(
        isHovered: flags & GTK_STATE_FLAG_PRELIGHT.rawValue != 0,
        isPressed: flags & GTK_STATE_FLAG_ACTIVE.rawValue != 0,
        hasVisibleFocus: flags & focus == focus)
    }
    set {
      // For tests: GTK sets these from the pointer and keyboard.
      let pairs = [
        (GTK_STATE_FLAG_PRELIGHT, newValue.isHovered), (GTK_STATE_FLAG_ACTIVE, newValue.isPressed),
        (
          GtkStateFlags(GTK_STATE_FLAG_FOCUSED.rawValue | GTK_STATE_FLAG_FOCUS_VISIBLE.rawValue),
          newValue.hasVisibleFocus
        ),
      ]
      for (flag, isOn) in pairs {
        if isOn {
          gtk_widget_set_state_flags(widget, flag, 0)
        } else {
          gtk_widget_unset_state_flags(widget, flag)
        }
      }
    }
  }

  /// Calls `handler` when hover, press, focus or another state of the button changes.
  func onInteractionChange(_ handler: @escaping () -> Void) {
    let box = Unmanaged.passRetained(StateBox(handler)).toOpaque()
    g_signal_connect_data(
      UnsafeMutableRawPointer(widget), "state-flags-changed",
      unsafeBitCast(stateFlagsTrampoline, to: GCallback.self), box, releaseStateBox,
      GConnectFlags(rawValue: 0))
  }
}

extension Element {
  /// Sets the pointer's shape over the widget by its CSS name (`pointer`); `nil` for the default.
  func setCursor(_ name: String?) { gtk_widget_set_cursor_from_name(widget, name) }

  /// Whether the widget has a pointer shape of its own.
  package var hasCursor: Bool { gtk_widget_get_cursor(widget) != nil }
}

// MARK: - The desktop

/// What the desktop asks of every window.
package enum Desktop {
  /// Whether widgets may animate (`gtk-enable-animations`).
  static var animationsEnabled: Bool {
    guard let settings = gtk_settings_get_default() else { return false }
    var value = GValue()
    g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN
    defer { g_value_unset(&value) }
    g_object_get_property(
      UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self),
      "gtk-enable-animations", &value)
    return g_value_get_boolean(&value) != 0
  }

  /// Whether the desktop asks for high contrast (libadwaita's style manager knows).
  static var prefersHighContrast: Bool {
    guard adw_is_initialized() != 0 else { return false }
    return adw_style_manager_get_high_contrast(adw_style_manager_get_default()) != 0
  }

  /// The monotonic clock, in microseconds: the time base of frames.
  static var now: Int { Int(g_get_monotonic_time()) }
}

// MARK: - Callbacks of their own shape

private final class DrawBox {
  let handler: (OpaquePointer, Double, Double) -> Void
  init(_ handler: @escaping (OpaquePointer, Double, Double) -> Void) { self.handler = handler }
}

private final class TickBox {
  let handler: () -> Bool
  init(_ handler: @escaping () -> Bool) { self.handler = handler }
}

private final class IdleBox {
  let handler: () -> Void
  init(_ handler: @escaping () -> Void) { self.handler = handler }
}

private nonisolated let idleTrampoline: @convention(c) (gpointer?) -> gboolean = { data in
  guard let data else { return 0 }
  let box = Unmanaged<IdleBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.handler() }
  return 0  // G_SOURCE_REMOVE
}

private nonisolated let releaseIdleBox: @convention(c) (gpointer?) -> Void = { data in
  if let data { Unmanaged<IdleBox>.fromOpaque(data).release() }
}

private final class StateBox {
  let handler: () -> Void
  init(_ handler: @escaping () -> Void) { self.handler = handler }
}

private nonisolated let drawTrampoline:
  @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?)
    -> Void = { _, context, width, height, data in
      guard let context, let data else { return }
      nonisolated(unsafe) let cairo = context
      let box = Unmanaged<DrawBox>.fromOpaque(data).takeUnretainedValue()
      MainActor.assumeIsolated { box.handler(cairo, Double(width), Double(height)) }
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
    let box = Unmanaged<StateBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
  }

private nonisolated let releaseStateBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<StateBox>.fromOpaque(data).release() }
  }
