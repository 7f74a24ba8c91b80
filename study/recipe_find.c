/*
 * recipe_find.c - what a weft-study RECIPE argument names (recipe.h): a
 * file as it is (an existing file, or any argument with a '/'), else a
 * bundled recipe by name (`sgmf`, with or without .ini): the recipes/
 * folder next to weft's data directory (models/config.h weft_data_dir:
 * the source tree's recipes/, or PREFIX/share/weft/recipes installed).
 */
#include "recipe.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/suggest.h"
#include "models/config.h"

int weft_recipe_dir(char *out, size_t len, struct weft_error *err)
{
	char data[1024];
	int rc = weft_data_dir(data, sizeof(data), err);
	if (rc)
		return rc;
	/* DIR/data -> DIR/recipes, so reports name the folder plainly */
	size_t n = strlen(data);
	while (n > 1 && data[n - 1] == '/')
		data[--n] = 0;
	int rc2;
	if (n >= 5 && strcmp(data + n - 5, "/data") == 0)
		rc2 = snprintf(out, len, "%.*s/recipes", (int)(n - 5), data);
	else if (strcmp(data, "data") == 0)
		rc2 = snprintf(out, len, "recipes");
	else
		rc2 = snprintf(out, len, "%s/../recipes", data);
	if (rc2 < 0 || (size_t)rc2 >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "recipes folder name too long");
	return 0;
}

int weft_recipe_resolve(const char *arg, char *out, size_t len, struct weft_error *err)
{
	struct stat st;
	if (!arg[0])
		return weft_error_set(err, WEFT_ERR_INPUT, "an empty recipe name");
	if (strchr(arg, '/') || stat(arg, &st) == 0) {
		if ((size_t)snprintf(out, len, "%s", arg) >= len)
			return weft_error_set(err, WEFT_ERR_INPUT, "recipe path too long");
		return 0;
	}
	char dir[1100];
	int rc = weft_recipe_dir(dir, sizeof(dir), err);
	if (rc)
		return rc;
	size_t n = strlen(arg);
	const char *ext = n > 4 && strcmp(arg + n - 4, ".ini") == 0 ? "" : ".ini";
	if ((size_t)snprintf(out, len, "%s/%s%s", dir, arg, ext) >= len)
		return weft_error_set(err, WEFT_ERR_INPUT, "recipe path too long");
	if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	struct weft_suggest sg;
	char phrase[200], names[600] = "";
	weft_suggest_init(&sg, arg);
	DIR *d = opendir(dir);
	size_t used = 0;
	char found[32][64]; /* the suggester keeps pointers to its candidates */
	uint32_t nf = 0;
	for (struct dirent *e; d && (e = readdir(d)) && nf < 32;) {
		size_t m = strlen(e->d_name);
		if (m <= 4 || m - 4 >= sizeof(found[0]) || strcmp(e->d_name + m - 4, ".ini") != 0)
			continue;
		snprintf(found[nf], sizeof(found[nf]), "%.*s", (int)(m - 4), e->d_name);
		weft_suggest_consider(&sg, found[nf]);
		if (used + m + 2 < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
						 found[nf]);
		nf++;
	}
	if (d)
		closedir(d);
	return weft_error_set(err, WEFT_ERR_INPUT,
			      "no recipe file %s and no bundled recipe `%s`%s (bundled: %s)", arg, arg,
			      weft_suggest_phrase(&sg, "`", "`", phrase, sizeof(phrase)),
			      names[0] ? names : "none found");
}
