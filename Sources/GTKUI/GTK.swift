public import CGTK

/// A GTK widget, as the C API hands it out.
public typealias Widget = UnsafeMutablePointer<GtkWidget>

// MARK: - Signals

/// Carries a Swift closure through a C signal's `user_data`.
final class SignalBox {
  let handler: () -> Void
  init(_ handler: @escaping () -> Void) { self.handler = handler }
}

/// Carries a key handler through `key-pressed`'s `user_data`.
final class KeyBox {
  let handler: (_ keyval: UInt32, _ modifiers: UInt32) -> Bool
  init(_ handler: @escaping (_ keyval: UInt32, _ modifiers: UInt32) -> Bool) {
    self.handler = handler
  }
}

// GTK emits signals on the main thread, where the main actor runs while GTK owns it.
private nonisolated let signalTrampoline: @convention(c) (gpointer?, gpointer?) -> Void = {
  _, data in
  guard let data else { return }
  let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.handler() }
}

private nonisolated let stopTrampoline: @convention(c) (gpointer?, gpointer?) -> gboolean = {
  _, data in
  guard let data else { return 0 }
  let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
  MainActor.assumeIsolated { box.handler() }
  return 1
}

private nonisolated let keyTrampoline:
  @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
    _, keyval, _, modifiers, data in
    guard let data else { return 0 }
    let box = Unmanaged<KeyBox>.fromOpaque(data).takeUnretainedValue()
    let rawModifiers = modifiers.rawValue
    return MainActor.assumeIsolated { box.handler(keyval, rawModifiers) } ? 1 : 0
  }

private nonisolated let shortcutTrampoline:
  @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = {
    _, _, data in
    guard let data else { return 0 }
    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
    MainActor.assumeIsolated { box.handler() }
    return 1
  }

private nonisolated let releaseSignalBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<SignalBox>.fromOpaque(data).release() }
  }

private nonisolated let releaseKeyBox:
  @convention(c) (gpointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    if let data { Unmanaged<KeyBox>.fromOpaque(data).release() }
  }

private nonisolated let releaseShortcutBox: @convention(c) (gpointer?) -> Void = { data in
  if let data { Unmanaged<SignalBox>.fromOpaque(data).release() }
}

/// Connects a closure to a signal whose handler takes only the instance and `user_data`.
@discardableResult
func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping () -> Void)
  -> gulong
{
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  return g_signal_connect_data(
    instance, signal, unsafeBitCast(signalTrampoline, to: GCallback.self), box, releaseSignalBox,
    GConnectFlags(rawValue: 0))
}

/// Connects a closure to a signal that returns a `gboolean`; the handler stops the signal.
@discardableResult
func connectStopping(
  _ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: @escaping () -> Void
) -> gulong {
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  return g_signal_connect_data(
    instance, signal, unsafeBitCast(stopTrampoline, to: GCallback.self), box, releaseSignalBox,
    GConnectFlags(rawValue: 0))
}

/// Calls `handler` for keys pressed while focus is inside `widget`, before its children see them.
///
/// The handler returns whether it used the key.
func onKeyPressed(
  _ widget: Widget, _ handler: @escaping (_ keyval: UInt32, _ modifiers: UInt32) -> Bool
) {
  let controller = gtk_event_controller_key_new()
  gtk_event_controller_set_propagation_phase(controller, GTK_PHASE_CAPTURE)
  let box = Unmanaged.passRetained(KeyBox(handler)).toOpaque()
  g_signal_connect_data(
    UnsafeMutableRawPointer(controller), "key-pressed",
    unsafeBitCast(keyTrampoline, to: GCallback.self), box, releaseKeyBox,
    GConnectFlags(rawValue: 0))
  gtk_widget_add_controller(widget, controller)
}

/// Adds a keyboard shortcut such as `<Control>z` or `F1` to a window.
func addShortcut(_ window: Widget, _ trigger: String, _ handler: @escaping () -> Void) {
  let controller = gtk_shortcut_controller_new()
  gtk_shortcut_controller_set_scope(controller, GTK_SHORTCUT_SCOPE_GLOBAL)
  let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
  let action = gtk_callback_action_new(shortcutTrampoline, box, releaseShortcutBox)
  let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), action)
  gtk_shortcut_controller_add_shortcut(controller, shortcut)
  gtk_widget_add_controller(window, controller)
}

// MARK: - Building widgets

/// Modifier bits of GDK key events.
enum Modifier {
  static let control = GDK_CONTROL_MASK.rawValue
  static let shift = GDK_SHIFT_MASK.rawValue
  static let alt = GDK_ALT_MASK.rawValue
}

/// A plain label that wraps.
func makeLabel(_ text: String = "", classes: [String] = []) -> Widget {
  let label: Widget = gtk_label_new(text)
  gtk_label_set_wrap(cgtk_label(label), 1)
  gtk_label_set_xalign(cgtk_label(label), 0)
  for name in classes { gtk_widget_add_css_class(label, name) }
  return label
}

/// A button with a mnemonic (`_Undo`: Alt+U), named by its text without the underscore.
func makeButton(_ mnemonic: String, _ handler: @escaping () -> Void) -> Widget {
  let button: Widget = gtk_button_new_with_mnemonic(mnemonic)
  cgtk_name_mnemonic_button(button, mnemonic.replacing("_", with: ""))
  connect(button, "clicked", handler)
  return button
}

/// A box laying out its children in a row or a column.
func makeBox(_ orientation: GtkOrientation, spacing: Int32 = 6, _ children: [Widget] = [])
  -> Widget
{
  let box: Widget = gtk_box_new(orientation, spacing)
  for child in children { gtk_box_append(cgtk_box(box), child) }
  return box
}

/// Appends children to a box.
func append(_ box: Widget, _ children: Widget...) {
  for child in children { gtk_box_append(cgtk_box(box), child) }
}

/// A text entry calling `onChange` with its text after each edit.
///
/// An entry with a visible mnemonic label takes its accessible name from that label; one without
/// gets `accessibleName`.
func makeEntry(
  accessibleName: String? = nil, placeholder: String = "", isPassword: Bool = false,
  onChange: @escaping (String) -> Void, onActivate: @escaping () -> Void
) -> Widget {
  let entry: Widget = isPassword ? gtk_password_entry_new() : gtk_entry_new()
  if let accessibleName { cgtk_set_accessible_label(entry, accessibleName) }
  if isPassword {
    gtk_password_entry_set_show_peek_icon(OpaquePointer(entry), 1)
  } else {
    gtk_entry_set_placeholder_text(cgtk_entry(entry), placeholder)
  }
  connect(entry, "changed") { onChange(text(of: entry)) }
  connect(entry, "activate", onActivate)
  return entry
}

/// The text of an editable widget.
func text(of editable: Widget) -> String {
  String(cString: gtk_editable_get_text(cgtk_editable(editable)))
}

// MARK: - Idempotent setters

/// Sets a label's text if it differs.
func setText(_ label: Widget, _ value: String) {
  if String(cString: gtk_label_get_text(cgtk_label(label))) != value {
    gtk_label_set_text(cgtk_label(label), value)
  }
}

/// Sets an editable's text if it differs, keeping the cursor where it is otherwise.
func setEditableText(_ editable: Widget, _ value: String) {
  if text(of: editable) != value {
    gtk_editable_set_text(cgtk_editable(editable), value)
  }
}

/// Shows or hides a widget.
func setVisible(_ widget: Widget, _ isVisible: Bool) {
  if (gtk_widget_get_visible(widget) != 0) != isVisible {
    gtk_widget_set_visible(widget, isVisible ? 1 : 0)
  }
}

/// Makes a widget take input or not.
func setSensitive(_ widget: Widget, _ isSensitive: Bool) {
  if (gtk_widget_get_sensitive(widget) != 0) != isSensitive {
    gtk_widget_set_sensitive(widget, isSensitive ? 1 : 0)
  }
}

/// Adds or removes a CSS class.
func setClass(_ widget: Widget, _ name: String, _ isOn: Bool) {
  if isOn {
    gtk_widget_add_css_class(widget, name)
  } else {
    gtk_widget_remove_css_class(widget, name)
  }
}

/// Sets the accessible name if it differs.
func setAccessibleName(_ widget: Widget, _ name: String) {
  if accessibleName(of: widget) != name {
    cgtk_set_accessible_label(widget, name)
  }
}

/// Sets the accessible description if it differs.
func setAccessibleDescription(_ widget: Widget, _ description: String) {
  if accessibleDescription(of: widget) != description {
    cgtk_set_accessible_description(widget, description)
  }
}

/// Shows a label with a message, or hides it.
func setMessage(_ label: Widget, _ message: String?) {
  setText(label, message ?? "")
  setVisible(label, message != nil)
}

/// Starts or stops a spinner and shows it only while it spins.
func setSpinning(_ spinner: Widget, _ isSpinning: Bool) {
  if isSpinning {
    gtk_spinner_start(cgtk_spinner(spinner))
  } else {
    gtk_spinner_stop(cgtk_spinner(spinner))
  }
  setVisible(spinner, isSpinning)
}

// MARK: - Reading widgets back

/// The accessible name given to a widget, if any.
public func accessibleName(of widget: Widget) -> String? {
  cgtk_accessible_label(widget).map { String(cString: $0) }
}

/// The accessible description given to a widget, if any.
public func accessibleDescription(of widget: Widget) -> String? {
  cgtk_accessible_description(widget).map { String(cString: $0) }
}

/// Whether a widget is marked disabled for assistive technologies.
public func isAccessibleDisabled(_ widget: Widget) -> Bool {
  cgtk_accessible_disabled(widget) != 0
}

/// The text shown by a button.
public func buttonLabel(of button: Widget) -> String {
  gtk_button_get_label(cgtk_button(button)).map { String(cString: $0) } ?? ""
}

/// The text of a label.
public func labelText(of label: Widget) -> String {
  String(cString: gtk_label_get_text(cgtk_label(label)))
}

/// Whether a widget has a CSS class.
public func hasClass(_ widget: Widget, _ name: String) -> Bool {
  gtk_widget_has_css_class(widget, name) != 0
}

/// Whether a widget is set to be visible.
public func isVisible(_ widget: Widget) -> Bool {
  gtk_widget_get_visible(widget) != 0
}

/// Whether a widget takes input.
public func isSensitive(_ widget: Widget) -> Bool {
  gtk_widget_get_sensitive(widget) != 0
}
