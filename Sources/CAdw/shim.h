#ifndef CADW_SHIM_H
#define CADW_SHIM_H

#include <adwaita.h>

/* The oldest libadwaita the desktop front end is written for: Debian 12's. */
#if !ADW_CHECK_VERSION(1, 2, 0)
#error "libadwaita 1.2 or newer is needed; install libadwaita-1-dev"
#endif

/* The version the program was built against, as major * 10000 + minor * 100 + micro. */
static inline int cadw_built_version(void) {
  return ADW_MAJOR_VERSION * 10000 + ADW_MINOR_VERSION * 100 + ADW_MICRO_VERSION;
}

/* Whether the widgets of libadwaita 1.4 (AdwNavigationView, AdwBreakpoint) were there at build
   time; 1.2 lacks them, and callers fall back to 1.2's widgets. */
static inline gboolean cadw_has_navigation_view(void) { return ADW_CHECK_VERSION(1, 4, 0); }

/* Checked casts: the cast macros are not imported into Swift. */
static inline GtkApplication *cadw_gtk_application(AdwApplication *application) {
  return GTK_APPLICATION(application);
}
static inline AdwApplicationWindow *cadw_application_window(void *p) {
  return ADW_APPLICATION_WINDOW(p);
}
static inline AdwHeaderBar *cadw_header_bar(void *p) { return ADW_HEADER_BAR(p); }
static inline AdwWindowTitle *cadw_window_title(void *p) { return ADW_WINDOW_TITLE(p); }
static inline AdwToastOverlay *cadw_toast_overlay(void *p) { return ADW_TOAST_OVERLAY(p); }
static inline AdwStatusPage *cadw_status_page(void *p) { return ADW_STATUS_PAGE(p); }
static inline AdwPreferencesGroup *cadw_preferences_group(void *p) {
  return ADW_PREFERENCES_GROUP(p);
}
static inline AdwPreferencesPage *cadw_preferences_page(void *p) {
  return ADW_PREFERENCES_PAGE(p);
}
static inline AdwPreferencesWindow *cadw_preferences_window(void *p) {
  return ADW_PREFERENCES_WINDOW(p);
}
static inline AdwPreferencesRow *cadw_preferences_row(void *p) { return ADW_PREFERENCES_ROW(p); }
static inline AdwActionRow *cadw_action_row(void *p) { return ADW_ACTION_ROW(p); }
static inline AdwComboRow *cadw_combo_row(void *p) { return ADW_COMBO_ROW(p); }
static inline AdwMessageDialog *cadw_message_dialog(void *p) { return ADW_MESSAGE_DIALOG(p); }
static inline AdwAboutWindow *cadw_about_window(void *p) { return ADW_ABOUT_WINDOW(p); }
static inline GtkListBoxRow *cadw_list_box_row(void *p) { return GTK_LIST_BOX_ROW(p); }
static inline GtkMenuButton *cadw_menu_button(void *p) { return GTK_MENU_BUTTON(p); }
static inline GActionMap *cadw_action_map(void *p) { return G_ACTION_MAP(p); }
static inline GAction *cadw_action(void *p) { return G_ACTION(p); }
static inline GActionGroup *cadw_action_group(void *p) { return G_ACTION_GROUP(p); }
static inline GMenuModel *cadw_menu_model(void *p) { return G_MENU_MODEL(p); }
static inline GListModel *cadw_list_model(void *p) { return G_LIST_MODEL(p); }

/* The GtkWindow a GtkBuilder description names, or NULL. */
static inline GtkWidget *cadw_builder_widget(GtkBuilder *builder, const char *name) {
  GObject *object = gtk_builder_get_object(builder, name);
  return object && GTK_IS_WIDGET(object) ? GTK_WIDGET(object) : NULL;
}

/* Whether the widget is libadwaita's application window. */
static inline gboolean cadw_is_application_window(GtkWidget *widget) {
  return ADW_IS_APPLICATION_WINDOW(widget);
}

/* Whether the widget is a GtkButton, for walking a dialog's children. */
static inline gboolean cadw_is_button(GtkWidget *widget) { return GTK_IS_BUTTON(widget); }

#endif
