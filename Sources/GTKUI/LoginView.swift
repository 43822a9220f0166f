import CGTK
public import LoginCore

/// The Sign in screen: user name, password, Sign in, Create account and Play as guest.
public final class LoginView {
  /// The screen's top widget.
  public let root: Widget
  /// The user name field.
  public let userNameEntry: Widget
  /// The password field.
  public let passwordEntry: Widget
  /// Sign in.
  public let signInButton: Widget
  /// Create account.
  public let createAccountButton: Widget
  /// Play as guest.
  public let guestButton: Widget
  /// Why the last request failed.
  public let errorLabel: Widget

  private let titleLabel: Widget
  private let spinner: Widget
  private var isRendering = false

  /// Creates the screen; `send` receives the player's actions.
  public init(send: @escaping (Login.Action.View) -> Void) {
    var rendering: () -> Bool = { false }
    titleLabel = makeLabel(classes: ["title"])
    userNameEntry = makeEntry(
      placeholder: "User name",
      onChange: { if !rendering() { send(.userNameChanged($0)) } },
      onActivate: { send(.signInTapped) })
    passwordEntry = makeEntry(
      isPassword: true,
      onChange: { if !rendering() { send(.passwordChanged($0)) } },
      onActivate: { send(.signInTapped) })
    signInButton = makeButton("_Sign in") { send(.signInTapped) }
    gtk_widget_add_css_class(signInButton, "suggested-action")
    createAccountButton = makeButton("_Create account") { send(.createAccountTapped) }
    guestButton = makeButton("Play as _guest") { send(.playAsGuestTapped) }
    spinner = gtk_spinner_new()
    errorLabel = makeLabel(classes: ["error"])
    setVisible(errorLabel, false)

    let userNameLabel = makeLabel("_User name")
    gtk_label_set_use_underline(cgtk_label(userNameLabel), 1)
    gtk_label_set_mnemonic_widget(cgtk_label(userNameLabel), userNameEntry)
    let passwordLabel = makeLabel("_Password")
    gtk_label_set_use_underline(cgtk_label(passwordLabel), 1)
    gtk_label_set_mnemonic_widget(cgtk_label(passwordLabel), passwordEntry)
    let buttons = makeBox(
      GTK_ORIENTATION_HORIZONTAL, spacing: 6, [signInButton, createAccountButton, spinner])
    root = makeBox(
      GTK_ORIENTATION_VERTICAL, spacing: 8,
      [
        titleLabel, userNameLabel, userNameEntry, passwordLabel, passwordEntry, buttons,
        errorLabel, guestButton,
      ])
    layOutForm(root)
    rendering = { [weak self] in self?.isRendering ?? false }
  }

  /// Shows `state`, changing only what differs from what is shown.
  public func render(_ state: Login.State) {
    isRendering = true
    defer { isRendering = false }
    setText(titleLabel, state.title)
    setEditableText(userNameEntry, state.userName)
    setEditableText(passwordEntry, state.password)
    setSensitive(userNameEntry, state.isFormEnabled)
    setSensitive(passwordEntry, state.isFormEnabled)
    setSensitive(signInButton, state.canSubmit)
    setSensitive(createAccountButton, state.canSubmit)
    setSensitive(guestButton, state.isFormEnabled)
    setSpinning(spinner, state.showsProgress)
    setMessage(errorLabel, state.errorMessage)
  }

  /// Puts the keyboard focus in the user name field.
  public func focus() {
    gtk_widget_grab_focus(userNameEntry)
  }
}

/// Centres a form and keeps it narrow in a wide window.
func layOutForm(_ form: Widget) {
  gtk_widget_set_halign(form, GTK_ALIGN_CENTER)
  gtk_widget_set_valign(form, GTK_ALIGN_CENTER)
  gtk_widget_set_size_request(form, 360, -1)
  for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom] { side(form, 24) }
  for side in [gtk_widget_set_margin_start, gtk_widget_set_margin_end] { side(form, 24) }
}
