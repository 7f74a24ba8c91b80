/*
 * config_find.c - what a `-c NAME` argument names (models/config.h,
 * weft_config_resolve), and the list of bundled configs
 * (weft_configs_bundled, `weft-config configs`).
 *
 * A path that exists is used as it is, and so is any argument with a '/'
 * (a missing file is then reported by the config loader, with the path).
 * A bare name such as `fermi-sm` or `vt-c4v1r256+bi+2s` (with or without
 * `.ini`) is looked up among the bundled configs: the *.ini files of the
 * folder configs/ next to weft's data directory (weft_data_dir) and of its immediate subfolders (configs/maven/). Two
 * bundled configs of one name in different folders would make a bare name
 * ambiguous: that is an error naming both. A name found nowhere gets the
 * closest bundled names as a suggestion, and, for a name shaped like a
 * Maven tile name, the grammar of those names.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/suggest.h"
#include "config.h"

/* more would be a misplaced folder, not a set of configs */
#define MAX_BUNDLED 4096

struct list {
	struct weft_config_bundled *v;
	uint32_t n, cap;
	int nomem;
};

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void add(struct list *l, const char *name, size_t nlen, const char *path)
{
	if (l->n >= MAX_BUNDLED || nlen >= sizeof(l->v->name) || strlen(path) >= sizeof(l->v->path))
		return;
	if (l->n == l->cap) {
		uint32_t nc = l->cap ? 2 * l->cap : 64;
		struct weft_config_bundled *nv = realloc(l->v, nc * sizeof(*nv));
		if (!nv) {
			l->nomem = 1;
			return;
		}
		l->v = nv;
		l->cap = nc;
	}
	struct weft_config_bundled *b = &l->v[l->n++];
	memcpy(b->name, name, nlen);
	b->name[nlen] = '\0';
	snprintf(b->path, sizeof(b->path), "%s", path);
}

/* Records every *.ini of dir (and, with descend, of its subfolders). */
static void scan(const char *dir, struct list *l, int descend)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char p[1200];
		if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= sizeof(p))
			continue;
		size_t len = strlen(e->d_name);
		if (len > 4 && strcmp(e->d_name + len - 4, ".ini") == 0 && is_file(p))
			add(l, e->d_name, len - 4, p);
		else if (descend && is_dir(p))
			scan(p, l, 0);
	}
	closedir(d);
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct weft_config_bundled *)a)->path,
		      ((const struct weft_config_bundled *)b)->path);
}

int weft_configs_bundled(struct weft_config_bundled **out, uint32_t *n, char *dir, size_t dirlen,
			     struct weft_error *err)
{
	*out = NULL;
	*n = 0;
	char data[1024], d[1100];
	int rc = weft_data_dir(data, sizeof(data), err);
	if (rc < 0)
		return rc;
	snprintf(d, sizeof(d), "%s/../configs", data);
	char *real = realpath(d, NULL); /* paths in messages without `..` */
	if (real) {
		snprintf(d, sizeof(d), "%s", real);
		free(real);
	}
	if (dir && (size_t)snprintf(dir, dirlen, "%s", d) >= dirlen)
		return weft_error_set(err, WEFT_ERR_INPUT, "configs folder path too long: %s", d);
	struct list l = { 0 };
	scan(d, &l, 1);
	if (l.nomem) {
		free(l.v);
		return weft_error_set(err, WEFT_ERR_NOMEM, "out of memory listing %s", d);
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), by_path);
	*out = l.v;
	*n = l.n;
	return 0;
}

static int maven_shaped(const char *name)
{
	return strncmp(name, "mimd-", 5) == 0 || strncmp(name, "vsimd-", 6) == 0 ||
	       strncmp(name, "vt-", 3) == 0;
}

int weft_config_resolve(const char *arg, char *out, size_t len, struct weft_error *err)
{
	if (!arg || !*arg)
		return weft_error_set(err, WEFT_ERR_INPUT, "an empty config name; give a file or a bundled "
				      "config's name (`weft-config configs` lists them)");
	if (strchr(arg, '/') || is_file(arg) || is_dir(arg)) {
		if ((size_t)snprintf(out, len, "%s", arg) >= len)
			return weft_error_set(err, WEFT_ERR_INPUT, "config path too long: %.80s...", arg);
		return 0;
	}
	char name[sizeof(((struct weft_config_bundled *)0)->name)];
	size_t l = strlen(arg);
	if (l > 4 && strcmp(arg + l - 4, ".ini") == 0)
		l -= 4;
	if (l >= sizeof(name))
		return weft_error_set(err, WEFT_ERR_INPUT,
				      "`%.60s...`: no such file, and too long for a bundled config's name", arg);
	memcpy(name, arg, l);
	name[l] = '\0';

	struct weft_config_bundled *v;
	uint32_t n;
	int rc = weft_configs_bundled(&v, &n, NULL, 0, err);
	if (rc < 0)
		return rc;
	const struct weft_config_bundled *hit = NULL, *other = NULL;
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0) {
			if (!hit)
				hit = &v[i];
			else if (!other)
				other = &v[i];
		}
	if (hit && !other) {
		if ((size_t)snprintf(out, len, "%s", hit->path) >= len)
			rc = weft_error_set(err, WEFT_ERR_INPUT, "config path too long: %s", hit->path);
	} else if (hit) {
		rc = weft_error_set(err, WEFT_ERR_INPUT,
				    "`%s` names more than one bundled config (%s and %s); give the path "
				    "of the one you mean",
				    arg, hit->path, other->path);
	} else {
		struct weft_suggest s;
		weft_suggest_init(&s, name);
		for (uint32_t i = 0; i < n; i++)
			weft_suggest_consider(&s, v[i].name);
		char sug[400];
		weft_suggest_phrase(&s, "`", "`", sug, sizeof(sug));
		rc = weft_error_set(err, WEFT_ERR_INPUT,
				    "`%s`: no such file, and no bundled config of that name%s%s; "
				    "`weft-config configs` lists the bundled ones",
				    arg, sug,
				    maven_shaped(name)
					    ? " (Maven tile names: mimd-cCrR, vsimd-cCvVrR[+b|+bi], "
					      "vt-cCvVrR[+b|+bi][+1s|+2s][+d][+mc] with the study's cores, "
					      "lanes and registers; docs/models/vt.md)"
					    : "");
	}
	free(v);
	return rc;
}
