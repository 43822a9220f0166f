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

#endif
