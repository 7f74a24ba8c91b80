/*
 * config_path.c - weft's data directory and the path-valued keys of a
 * config (config.h: weft_data_dir, weft_config_resolve_path,
 * weft_config_path). Apart from config.c, which looks models up in the
 * registry, so that a model that reads its own files at init (the vt
 * model's calibration data) calls down, not back into config loading.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Copies a found directory to out, canonical when realpath can say. */
static int found_dir(const char *cand, char *out, size_t len, struct weft_error *err)
{
	char real[PATH_MAX];
	const char *p = realpath(cand, real) ? real : cand;
	int w = snprintf(out, len, "%s", p);
	if (w < 0 || (size_t)w >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "data directory path too long: %s", p);
	return 0;
}

/* The lookup order (docs/energy.md, README "Install"): $WEFT_DATA; then,
 * from the directory of the running executable (/proc/self/exe),
 * ../share/weft/data (an installed tool: PREFIX/bin next to
 * PREFIX/share/weft) and ../data (bin/ in a source checkout); then ./data
 * (tests run from the repository root). */
int weft_data_dir(char *out, size_t len, struct weft_error *err)
{
	const char *env = getenv("WEFT_DATA");
	if (env && env[0]) {
		if (!is_dir(env))
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "WEFT_DATA=%s is not a directory; point it at weft's "
					      "data/ folder or unset it",
					      env);
		int w = snprintf(out, len, "%s", env);
		if (w < 0 || (size_t)w >= len)
			return weft_error_set(err, WEFT_ERR_INPUT,
					      "data directory path too long: %s", env);
		return 0;
	}
	static const char *const rel[] = { "../share/weft/data", "../data" };
	char tried[2][PATH_MAX + 32];
	int ntried = 0;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			for (int i = 0; i < 2; i++) {
				snprintf(tried[i], sizeof(tried[i]), "%s/%s", exe, rel[i]);
				ntried++;
				if (is_dir(tried[i]))
					return found_dir(tried[i], out, len, err);
			}
		}
	}
	if (is_dir("data")) {
		snprintf(out, len, "data");
		return 0;
	}
	if (ntried == 2)
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "cannot find weft's data directory: WEFT_DATA is not set, and "
				      "none of %s, %s, ./data is a directory; set "
				      "WEFT_DATA=/path/to/weft/data",
				      tried[0], tried[1]);
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "cannot find weft's data directory: WEFT_DATA is not set, the "
			      "executable's path is unknown (/proc/self/exe unreadable) and ./data "
			      "is not a directory; set WEFT_DATA=/path/to/weft/data");
}

int weft_config_resolve_path(const struct weft_config *cfg, const char *value, char *out,
			     size_t len, struct weft_error *err)
{
	if (!value || !value[0])
		return weft_error_set(err, WEFT_ERR_INPUT, "%s: empty table path",
				      cfg ? cfg->path : "config");
	if (value[0] == '/') {
		snprintf(out, len, "%s", value);
		return 0;
	}
	if (!strncmp(value, "./", 2) || !strncmp(value, "../", 3)) {
		const char *p = cfg ? cfg->path : "";
		const char *slash = strrchr(p, '/');
		if (slash)
			snprintf(out, len, "%.*s/%s", (int)(slash - p), p, value);
		else
			snprintf(out, len, "%s", value);
		return 0;
	}
	char dir[PATH_MAX];
	int rc = weft_data_dir(dir, sizeof(dir), err);
	if (rc < 0)
		return rc;
	int w = snprintf(out, len, "%s/%s", dir, value);
	if (w < 0 || (size_t)w >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "table path too long: %s/%s", dir, value);
	return 0;
}

int weft_config_path(const struct weft_config *cfg, const char *section, const char *key,
		     char *out, size_t len, struct weft_error *err)
{
	const struct weft_config_value *v = weft_config_find(cfg, section, key);
	if (!v)
		return weft_error_set(err, WEFT_ERR_INTERNAL, "[%s] %s is not in the schema of %s",
				      section, key, cfg ? cfg->path : "config");
	int rc = weft_config_resolve_path(cfg, v->str, out, len, err);
	if (rc < 0 && err && v->from == 1)
		weft_error_prefix(err, "%s:%u: [%s] %s: ", cfg->path, v->line, section, key);
	return rc;
}
