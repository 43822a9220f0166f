import CGTK
public import TwoFactorCore

/// The Two-factor screen: a code from an authenticator app or a recovery code.
public final class TwoFactorView {
  /// The screen's top widget.
  public let root: Widget
  /// The code field.
  public let codeEntry: Widget
  /// Verify the code.
  public let verifyButton: Widget
  /// Back to Sign in.
  public let cancelButton: Widget

  private let titleLabel: Widget
  private let promptLabel: Widget
  private let spinner: Widget
  private let errorLabel: Widget
  private var isRendering = false

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (TwoFactor.Action.View) -> Void) {
    var rendering: () -> Bool = { false }
    titleLabel = makeLabel(classes: ["title"])
    promptLabel = makeLabel()
    codeEntry = makeEntry(
      accessibleName: "Code", placeholder: "123456",
      onChange: { if !rendering() { send(.codeChanged($0)) } },
      onActivate: { send(.submitTapped) })
    verifyButton = makeButton("_Verify") { send(.submitTapped) }
    gtk_widget_add_css_class(verifyButton, "suggested-action")
    cancelButton = makeButton("_Cancel") { send(.cancelTapped) }
    spinner = gtk_spinner_new()
    errorLabel = makeLabel(classes: ["error"])
    setVisible(errorLabel, false)
    let buttons = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [verifyButton, cancelButton, spinner])
    root = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 8,
      [titleLabel, promptLabel, codeEntry, buttons, errorLabel])
    layOutForm(root)
    rendering = { [weak self] in self?.isRendering ?? false }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: TwoFactor.State) {
    isRendering = true
    defer { isRendering = false }
    setText(titleLabel, state.title)
    setText(promptLabel, state.prompt)
    setAccessibleDescription(codeEntry, state.prompt)
    setEditableText(codeEntry, state.code)
    setSensitive(codeEntry, state.isFormEnabled)
    setSensitive(verifyButton, state.canSubmit)
    setSpinning(spinner, state.showsProgress)
    setMessage(errorLabel, state.errorMessage)
  }

  /// Puts the keyboard focus in the code field.
  public func focus() {
    gtk_widget_grab_focus(codeEntry)
  }
}
