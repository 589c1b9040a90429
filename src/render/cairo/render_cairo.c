/* render_cairo.c: PNG, PDF and static SVG through one drawing function.
 *
 * draw() knows nothing of the surface: it paints the layout in CSS pixels,
 * exactly where render_svg.c puts things (background gradient, title and
 * subtitle bands, frames, labels), and the surface decides what a pixel is:
 * `scale` device pixels for PNG, 0.75 pt for PDF (a browser printing at
 * 96 dpi), one user unit for SVG. Labels go to the same frames as in the
 * interactive SVG (wide enough for three average characters), cut as
 * core/label.h says but fitted with the pinned font's real glyph widths; a
 * label whose ellipsis alone does not fit is left out, so none spills.
 *
 * PNG is drawn on an image surface and written by png.c with the title as
 * metadata; SVG is captured in memory and copied to the sink with a <title>
 * added (cairo 1.16 writes neither); PDF streams straight to the sink. */
#include "core/escape.h"
#include "core/util.h"
#include "render/fonts.h"
#include "render/legend.h"
#include "render/png.h"
#include "render/render.h"

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IMAGE_MAX 32767      /* pixman's limit for one side of an image */
#define PT_PER_PX 0.75

struct pic {
	const struct af_layout *l;
	const struct af_render_opts *o;
	cairo_t *cr;
	PangoLayout *pl;                /* reused for every piece of text */
	PangoFontDescription *font, *title_font;
	double char_px;                 /* the SVG's average advance, for its label rule */
};

/* ---- drawing ---- */

static void set_rgb(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0, (rgb >> 8 & 255) / 255.0,
			     (rgb & 255) / 255.0);
}

static void add_stop(cairo_pattern_t *g, double at, uint32_t rgb)
{
	cairo_pattern_add_color_stop_rgb(g, at, (rgb >> 16 & 255) / 255.0, (rgb >> 8 & 255) / 255.0,
					 (rgb & 255) / 255.0);
}

/* render_svg.c's gradient: bg_top at 5% of the height to bg_bottom at 95%
 * (--bgcolors) */
static void background(struct pic *p)
{
	const struct af_layout *l = p->l;
	cairo_pattern_t *g = cairo_pattern_create_linear(0, 0, 0, l->height);
	add_stop(g, 0.05, p->o->bg_top);
	add_stop(g, 0.95, p->o->bg_bottom);
	cairo_rectangle(p->cr, 0, 0, l->width, l->height);
	cairo_set_source(p->cr, g);
	cairo_fill(p->cr);
	cairo_pattern_destroy(g);
}

/* Put s in the layout, cut with an ellipsis to max_w px (no limit if <= 0).
 * Returns the width it takes in px. */
static double set_text(struct pic *p, const PangoFontDescription *font,
		       const char *s, size_t len, double max_w)
{
	char *clean = af_utf8_clean(s, len);
	double pango_w = max_w * PANGO_SCALE;
	pango_layout_set_font_description(p->pl, font);
	pango_layout_set_width(p->pl, max_w <= 0 ? -1 : pango_w > INT_MAX / 2 ? INT_MAX / 2
			       : (int)pango_w);
	pango_layout_set_text(p->pl, clean, -1);
	free(clean);
	PangoRectangle logical;
	pango_layout_get_extents(p->pl, NULL, &logical);
	return (logical.x + logical.width) / (double)PANGO_SCALE;
}

/* Draw the layout's text with its baseline at y, starting at x. */
static void show_text(struct pic *p, double x, double baseline_y)
{
	double base = pango_layout_get_baseline(p->pl) / (double)PANGO_SCALE;
	cairo_move_to(p->cr, x, baseline_y - base);
	pango_cairo_show_layout(p->cr, p->pl);
}

/* Title (font size + 5, centred, baseline at 2 font sizes) and subtitle
 * (#505050, baseline at 4 font sizes). The SVG's Search and Reset Zoom
 * buttons are left out: nothing here can be clicked. */
static void titles(struct pic *p)
{
	const struct af_layout *l = p->l;
	double fs = l->font_size, room = l->width - 2 * l->xpad;
	const char *title = p->o->title ? p->o->title : "Flame Graph";
	double w = set_text(p, p->title_font, title, strlen(title), room);
	cairo_set_source_rgb(p->cr, 0, 0, 0);
	show_text(p, l->width / 2 - w / 2, fs * 2);
	const char *sub = p->o->subtitle;
	if (sub && *sub) {
		w = set_text(p, p->font, sub, strlen(sub), room);
		set_rgb(p->cr, 0x505050);
		show_text(p, l->width / 2 - w / 2, fs * 4);
	}
}

/* The legend, where render_svg.c puts it (af_legend_items). */
static void legend(struct pic *p)
{
	struct af_legend_items it;
	af_legend_items_build(&it, p->l, p->o);
	for (size_t i = 0; i < it.n; i++) {
		const struct af_legend_item *e = &it.item[i];
		switch (e->type) {
		case AF_LEGEND_SWATCH:
			set_rgb(p->cr, e->colour);
			cairo_rectangle(p->cr, e->x, e->y, e->w, e->h);
			cairo_fill(p->cr);
			break;
		case AF_LEGEND_BAR: {
			static const double at[4] = { 0, 0.5, 0.5, 1 };
			cairo_pattern_t *g = cairo_pattern_create_linear(e->x, 0, e->x + e->w, 0);
			for (int k = 0; k < 4; k++) {
				uint32_t c = p->l->legend.stops[k];
				cairo_pattern_add_color_stop_rgb(g, at[k], (c >> 16 & 255) / 255.0,
								 (c >> 8 & 255) / 255.0, (c & 255) / 255.0);
			}
			cairo_rectangle(p->cr, e->x, e->y, e->w, e->h);
			cairo_set_source(p->cr, g);
			cairo_fill(p->cr);
			cairo_pattern_destroy(g);
			break;
		}
		case AF_LEGEND_TEXT:
			set_text(p, p->font, it.text.data + e->text, e->len, 0);
			cairo_set_source_rgb(p->cr, 0, 0, 0);
			show_text(p, e->x, e->y);
			break;
		default:
			assert(0);
		}
	}
	af_legend_items_release(&it);
}

static void frames(struct pic *p)
{
	const struct af_layout *l = p->l;
	double h = l->frame_height - 1;
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		set_rgb(p->cr, f->colour);
		cairo_rectangle(p->cr, f->x, f->y, f->w, h);
		cairo_fill(p->cr);
	}
}

/* A label in at most room px: core/label.h's cut to as many code points as
 * the pinned font's real glyph widths allow, found by measuring (the first
 * guess is proportional to the overflow, so two or three tries at most).
 * Returns false when not even an ellipsis fits. */
static bool fit_label(struct pic *p, struct af_labeler *lb, const char *name, size_t len,
		      double room)
{
	size_t max = af_utf8_count(name, len);
	while (max >= 1) {
		af_label(lb, name, len, max);
		double w = set_text(p, p->font, lb->text.data, lb->text.len, 0);
		if (w <= room + 1e-6)
			return true;
		size_t guess = (size_t)floor((double)max * room / w);
		max = guess < max ? guess : max - 1;
	}
	return false;
}

static void labels(struct pic *p)
{
	const struct af_layout *l = p->l;
	double dy = (l->frame_height - 1) / 2 + l->font_size / 4;
	struct af_labeler lb;
	af_labeler_init(&lb, p->o->right_cut ? AF_LABEL_RIGHT : AF_LABEL_SMART);
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		if (!(floor((f->w - 6) / p->char_px) >= 3)) {
			i = f->end - 1;       /* descendants are no wider */
			continue;
		}
		const char *name = af_tree_name(l->tree, f->name);
		size_t len = af_label_shown_len(name, af_tree_name_len(l->tree, f->name));
		if (!fit_label(p, &lb, name, len, f->w - 6) || !lb.text.len)
			continue;
		set_rgb(p->cr, af_label_ink(f->colour));
		show_text(p, f->x + 3, f->y + dy);
	}
	af_labeler_release(&lb);
}

/* Flame charts: the time axis under the frames, where render_svg.c puts
 * it: a grey line, a 4 px mark and a label per tick, each label kept
 * inside the image (af_tick.anchor). */
static void axis(struct pic *p)
{
	const struct af_layout *l = p->l;
	if (!l->nticks)
		return;
	set_rgb(p->cr, 0x808080);
	cairo_set_line_width(p->cr, 1);
	cairo_move_to(p->cr, l->xpad, l->axis_y);
	cairo_line_to(p->cr, l->width - l->xpad, l->axis_y);
	for (size_t i = 0; i < l->nticks; i++) {
		cairo_move_to(p->cr, l->ticks[i].x, l->axis_y);
		cairo_line_to(p->cr, l->ticks[i].x, l->axis_y + 4);
	}
	cairo_stroke(p->cr);
	set_rgb(p->cr, 0x505050);
	for (size_t i = 0; i < l->nticks; i++) {
		const struct af_tick *t = &l->ticks[i];
		double w = set_text(p, p->font, t->label, strlen(t->label), 0);
		double x = t->anchor < 0 ? t->x : t->anchor > 0 ? t->x - w : t->x - w / 2;
		x = x < 1 ? 1 : x + w > l->width - 1 ? l->width - 1 - w : x;
		show_text(p, x, l->axis_y + 4 + l->font_size);
	}
}

static void draw(struct pic *p)
{
	background(p);
	titles(p);
	legend(p);
	frames(p);
	labels(p);
	axis(p);
}

/* ---- surfaces ---- */

static cairo_status_t to_sink(void *closure, const unsigned char *data, unsigned int len)
{
	af_sink_write(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int len)
{
	af_buf_add(closure, data, len);
	return CAIRO_STATUS_SUCCESS;
}

static cairo_surface_t *make_surface(const struct pic *p, enum af_cairo_format fmt, double scale,
				     struct af_sink *out, struct af_buf *captured, struct af_diag *d)
{
	const struct af_layout *l = p->l;
	cairo_surface_t *s = NULL;
	switch (fmt) {
	case AF_CAIRO_PNG: {
		double w = ceil(l->width * scale), h = ceil(l->height * scale);
		if (!(w <= IMAGE_MAX && h <= IMAGE_MAX)) {
			af_diag_error(d, "a PNG of %.0f x %.0f px is too large (at most %d px a side): "
				      "use a smaller --scale or --width, a larger --minwidth, or PDF or SVG output",
				      w, h, IMAGE_MAX);
			return NULL;
		}
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
		break;
	}
	case AF_CAIRO_PDF:
		s = cairo_pdf_surface_create_for_stream(to_sink, out, l->width * PT_PER_PX,
							l->height * PT_PER_PX);
		break;
	case AF_CAIRO_SVG:
		s = cairo_svg_surface_create_for_stream(to_buf, captured, l->width, l->height);
		cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
		break;
	default:
		assert(0);
		return NULL;
	}
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		af_diag_error(d, "cannot make a %.0f x %.0f image: %s", l->width, l->height,
			      cairo_status_to_string(cairo_surface_status(s)));
		cairo_surface_destroy(s);
		return NULL;
	}
	return s;
}

static void set_pdf_metadata(cairo_surface_t *s, const struct af_render_opts *o)
{
	const char *title = o->title ? o->title : "Flame Graph";
	char *t = af_utf8_clean(title, strlen(title));
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, t);
	free(t);
	if (o->subtitle && *o->subtitle) {
		t = af_utf8_clean(o->subtitle, strlen(o->subtitle));
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, t);
		free(t);
	}
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "aflame-render");
	/* cairo stamps the current time; reproducible builds pin it */
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long secs = epoch ? strtoll(epoch, &end, 10) : -1;
	struct tm tm;
	time_t tt = (time_t)secs;
	if (epoch && *epoch && !*end && secs >= 0 && gmtime_r(&tt, &tm)) {
		char date[32];
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
	}
}

/* ---- metadata ---- */

/* The painted image as a PNG (png.c, much faster than cairo's writer) with
 * the title as metadata (cairo 1.16 writes no tEXt chunk). */
static int write_png(cairo_surface_t *s, const struct af_render_opts *o,
		     struct af_sink *out, struct af_diag *d)
{
	struct af_png_text text[3];
	size_t n = 0;
	text[n++] = (struct af_png_text){ "Title", o->title ? o->title : "Flame Graph" };
	if (o->subtitle && *o->subtitle)
		text[n++] = (struct af_png_text){ "Description", o->subtitle };
	text[n++] = (struct af_png_text){ "Software", "aflame-render" };
	cairo_surface_flush(s);
	return af_png_write(out, cairo_image_surface_get_data(s),
			    (uint32_t)cairo_image_surface_get_width(s),
			    (uint32_t)cairo_image_surface_get_height(s),
			    (size_t)cairo_image_surface_get_stride(s), text, n, d);
}

/* cairo numbers SVG surfaces ("surface31") with a counter shared by the
 * whole process, so the same graph would differ by where it came in a
 * batch: number them by order of appearance in this document instead. */
static void renumber_surfaces(struct af_buf *svg)
{
	static const char key[] = "surface";
	struct af_buf b;
	af_buf_init(&b);
	unsigned long seen[64];
	size_t nseen = 0;
	const char *s = svg->data, *run = s;
	while ((s = strstr(s, key)) != NULL) {
		const char *digits = s + sizeof key - 1, *end = digits;
		while (*end >= '0' && *end <= '9')
			end++;
		if (end == digits || end - digits > 9) {
			s = end;
			continue;
		}
		unsigned long old = strtoul(digits, NULL, 10);
		size_t k = 0;
		while (k < nseen && seen[k] != old)
			k++;
		if (k == nseen && nseen < sizeof seen / sizeof *seen)
			seen[nseen++] = old;
		af_buf_add(&b, run, (size_t)(digits - run));
		af_buf_printf(&b, "%zu", k + 1);
		run = s = end;
	}
	af_buf_puts(&b, run);
	af_buf_release(svg);
	*svg = b;
}

/* cairo's SVG with a <title> as the root element's first child. */
static int write_svg(struct af_buf *svg, const struct af_render_opts *o,
		     struct af_sink *out, struct af_diag *d)
{
	if (svg->data)
		renumber_surfaces(svg);
	const char *root = svg->data ? strstr(svg->data, "<svg") : NULL;
	const char *gt = root ? strchr(root, '>') : NULL;
	if (!gt)
		return af_diag_error(d, "cairo wrote an unexpected SVG stream");
	size_t head = (size_t)(gt + 1 - svg->data);
	af_sink_write(out, svg->data, head);
	af_sink_puts(out, "\n<title>");
	af_escape_xml(out, o->title ? o->title : "Flame Graph");
	af_sink_puts(out, "</title>");
	af_sink_write(out, svg->data + head, svg->len - head);
	return 0;
}

/* ---- the back end ---- */

static void pic_init(struct pic *p, struct af_text *text)
{
	p->pl = pango_layout_new(text->context);
	pango_layout_set_ellipsize(p->pl, PANGO_ELLIPSIZE_END);
	pango_layout_set_single_paragraph_mode(p->pl, TRUE);
	p->font = pango_font_description_new();
	pango_font_description_set_family(p->font, AF_FONT_FAMILY);
	pango_font_description_set_absolute_size(p->font, p->l->font_size * PANGO_SCALE);
	p->title_font = pango_font_description_copy(p->font);
	pango_font_description_set_absolute_size(p->title_font, (p->l->font_size + 5) * PANGO_SCALE);
}

static void pic_release(struct pic *p)
{
	g_object_unref(p->pl);
	pango_font_description_free(p->font);
	pango_font_description_free(p->title_font);
}

/* Paint on s and finish it; -1 with diag set on a cairo error. */
static int paint(struct pic *p, cairo_surface_t *s, enum af_cairo_format fmt, double scale,
		 struct af_text *text, struct af_diag *d)
{
	p->cr = cairo_create(s);
	if (fmt == AF_CAIRO_PNG)
		cairo_scale(p->cr, scale, scale);
	else if (fmt == AF_CAIRO_PDF)
		cairo_scale(p->cr, PT_PER_PX, PT_PER_PX);
	pango_cairo_update_context(p->cr, text->context);
	pic_init(p, text);
	draw(p);
	pic_release(p);
	cairo_status_t st = cairo_status(p->cr);
	cairo_destroy(p->cr);
	p->cr = NULL;
	if (st == CAIRO_STATUS_SUCCESS && fmt != AF_CAIRO_PNG) {
		cairo_surface_finish(s);
		st = cairo_surface_status(s);
	}
	if (st != CAIRO_STATUS_SUCCESS)
		return af_diag_error(d, "cannot draw: %s", cairo_status_to_string(st));
	return 0;
}

int af_render_cairo(const struct af_layout *l, const struct af_render_opts *o,
		    enum af_cairo_format fmt, struct af_sink *out, struct af_diag *d)
{
	struct pic p = { .l = l, .o = o };
	if (!l->nframes)
		return af_diag_error(d, "nothing to draw");
	p.char_px = l->font_size * (o->font_width > 0 ? o->font_width : 0.59);
	if (!(p.char_px > 0))
		return af_diag_error(d, "font size must be positive");
	double scale = o->scale > 0 ? o->scale : 1;
	struct af_text *own = NULL, *text = o->text;
	if (!text && !(text = own = af_text_new(d)))
		return -1;
	struct af_buf captured;
	af_buf_init(&captured);
	int rc = -1;
	cairo_surface_t *s = make_surface(&p, fmt, scale, out, &captured, d);
	if (s) {
		if (fmt == AF_CAIRO_PDF)
			set_pdf_metadata(s, o);
		rc = paint(&p, s, fmt, scale, text, d);
		if (rc == 0 && fmt == AF_CAIRO_PNG)
			rc = write_png(s, o, out, d);
		else if (rc == 0 && fmt == AF_CAIRO_SVG)
			rc = write_svg(&captured, o, out, d);
		cairo_surface_destroy(s);
	}
	af_buf_release(&captured);
	af_text_free(own);
	return rc;
}
