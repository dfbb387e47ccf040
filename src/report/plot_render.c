/* Running gnuplot for plot.h: one child per batch of scripts, the scripts
 * on a pipe, the images read back from another and split per plot. */
#include "report/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"

static const char *plot_gnuplot(void)
{
	const char *g = getenv("VMR_GNUPLOT");
	return g && *g ? g : "gnuplot";
}

bool plot_available(void)
{
	const char *g = plot_gnuplot();
	if (strchr(g, '/'))
		return access(g, X_OK) == 0;
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin"), *save = NULL;
	bool found = false;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *d ? d : ".", g);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

struct plot_buf {
	char *s;
	size_t len, cap;
};

static int plot_buf_read(int fd, struct plot_buf *b)
{
	if (b->cap - b->len < 65536) {
		b->cap = b->cap * 2 + 65536;
		b->s = xrealloc(b->s, b->cap + 1);
	}
	ssize_t r = read(fd, b->s + b->len, b->cap - b->len);
	if (r > 0)
		b->len += (size_t)r;
	b->s[b->len] = '\0';
	return r > 0 ? 1 : (r == 0 ? 0 : (errno == EINTR || errno == EAGAIN ? 1 : -1));
}

static pid_t plot_spawn(int *in, int *out, int *err)
{
	int pi[2], po[2], pe[2];
	if (pipe2(pi, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(po, O_CLOEXEC) < 0)
		goto close_in;
	if (pipe2(pe, O_CLOEXEC) < 0)
		goto close_out;
	pid_t pid = fork();
	if (pid < 0)
		goto close_err;
	if (pid == 0) {
		dup2(pi[0], 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execlp(plot_gnuplot(), plot_gnuplot(), (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", plot_gnuplot(), strerror(errno));
		_exit(127);
	}
	close(pi[0]);
	close(po[1]);
	close(pe[1]);
	*in = pi[1];
	*out = po[0];
	*err = pe[0];
	return pid;
close_err:
	close(pe[0]);
	close(pe[1]);
close_out:
	close(po[0]);
	close(po[1]);
close_in:
	close(pi[0]);
	close(pi[1]);
	return -1;
}

/* Feed the script and drain both outputs at once, so that neither side
 * blocks on a full pipe whatever the sizes. */
static void plot_pump(int in, int out, int err, const char *script, struct plot_buf *svg, struct plot_buf *msg)
{
	size_t off = 0, len = strlen(script);
	fcntl(in, F_SETFL, O_NONBLOCK);
	struct pollfd fds[3] = { { .fd = out, .events = POLLIN }, { .fd = err, .events = POLLIN },
				 { .fd = in, .events = POLLOUT } };
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (fds[2].fd >= 0 && off == len) {
			close(in);
			fds[2].fd = -1;
		}
		if (poll(fds, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[2].fd >= 0 && fds[2].revents) {
			ssize_t w = write(in, script + off, len - off);
			if (w > 0)
				off += (size_t)w;
			else if (w < 0 && errno != EAGAIN && errno != EINTR)
				off = len; /* gnuplot went away: stop feeding it */
		}
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0 && fds[i].revents && plot_buf_read(fds[i].fd, i ? msg : svg) <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
			}
	}
	if (fds[2].fd >= 0)
		close(in);
}

static char *plot_first_line(const char *s)
{
	while (*s == '\n' || *s == ' ' || *s == '\t')
		s++;
	size_t n = strcspn(s, "\n");
	return xasprintf("%.*s", (int)(n > 200 ? 200 : n), s);
}

/* Where the tag at p ends when it is an empty group ("<g ...>" then
 * "</g>" on the next line), else NULL.  gnuplot opens one for every
 * colour or width it sets, drawn in or not: more than a quarter of a small
 * plot's bytes. */
static const char *plot_empty_group(const char *p, const char *end)
{
	static const char close[] = ">\n</g>\n";
	if (end - p < 3 || memcmp(p, "<g ", 3))
		return NULL;
	const char *gt = memchr(p, '>', (size_t)(end - p));
	if (!gt || (size_t)(end - gt) < sizeof(close) - 1 || memcmp(gt, close, sizeof(close) - 1))
		return NULL;
	return gt + sizeof(close) - 1;
}

/* The SVG from start[0..len) plus "</svg>", without empty groups and with
 * images drawn as crisp pixels (a map cell is a page, not a gradient)
 * wherever it is viewed. */
static char *plot_svg_tidy(const char *start, size_t len, size_t *outlen)
{
	static const char tag[] = "<image ", with[] = "<image style='image-rendering:pixelated' ";
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	const char *p = start, *end = start + len, *lt;
	while ((lt = memchr(p, '<', (size_t)(end - p)))) {
		fwrite(p, 1, (size_t)(lt - p), f);
		const char *skip = plot_empty_group(lt, end);
		if (skip) {
			p = skip;
		} else if ((size_t)(end - lt) >= sizeof(tag) - 1 && !memcmp(lt, tag, sizeof(tag) - 1)) {
			fputs(with, f);
			p = lt + sizeof(tag) - 1;
		} else {
			fputc('<', f);
			p = lt + 1;
		}
	}
	fwrite(p, 1, (size_t)(end - p), f);
	fputs("</svg>\n", f);
	fclose(f);
	return buf;
}

static uint32_t plot_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The length of the PNG file at p (at most len bytes), walking its chunks
 * to IEND, or 0 when p does not hold a whole PNG.  Its bytes may hold any
 * text, so it is skipped by its own lengths, never searched. */
static size_t plot_png_len(const unsigned char *p, size_t len, unsigned *width, unsigned *height)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	if (len < 33 || memcmp(p, sig, 8) || memcmp(p + 12, "IHDR", 4))
		return 0;
	*width = plot_be32(p + 16);
	*height = plot_be32(p + 20);
	for (size_t off = 8; len - off >= 12;) {
		uint32_t n = plot_be32(p + off);
		if (n > len - off - 12)
			return 0;
		bool end = !memcmp(p + off + 4, "IEND", 4);
		off += 12 + (size_t)n;
		if (end)
			return off;
	}
	return 0;
}

/* The SVG's size from its width="..." and height="..." attributes. */
static void plot_svg_size(const char *svg, struct plot_image *img)
{
	const char *w = strstr(svg, "width=\""), *h = strstr(svg, "height=\"");
	img->width = w ? (unsigned)strtoul(w + 7, NULL, 10) : 0;
	img->height = h ? (unsigned)strtoul(h + 8, NULL, 10) : 0;
}

/* Plot i's image at out[at..len), right after its marker: a PNG, or an SVG
 * ending before the next marker.  Returns where the image ends (at, when
 * gnuplot drew nothing). */
static size_t plot_take(const char *out, size_t at, size_t len, size_t i, struct plot_image *img)
{
	const unsigned char *u = (const unsigned char *)out + at;
	size_t png = plot_png_len(u, len - at, &img->width, &img->height);
	if (png) {
		img->format = PLOT_PNG;
		img->data = xmalloc(png);
		memcpy(img->data, u, png);
		img->len = png;
		return at + png;
	}
	char mark[48];
	int mlen = snprintf(mark, sizeof(mark), "VMR-PLOT %zu\n", i + 1);
	const char *next = memmem(out + at, len - at, mark, (size_t)mlen);
	size_t span = (size_t)((next ? next : out + len) - (out + at));
	const char *svg = memmem(out + at, span, "<svg", 4);
	const char *end = svg ? memmem(svg, span - (size_t)(svg - (out + at)), "</svg>", 6) : NULL;
	if (!end)
		return at;
	img->format = PLOT_SVG;
	plot_svg_size(svg, img);
	img->data = plot_svg_tidy(svg, (size_t)(end - svg), &img->len);
	return (size_t)(end - out) + 6;
}

/* Plot i's image is what gnuplot wrote after marker i. */
static void plot_split(const char *out, size_t len, size_t n, struct plot_image *imgs)
{
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		char mark[48];
		int mlen = snprintf(mark, sizeof(mark), "VMR-PLOT %zu\n", i);
		const char *start = memmem(out + at, len - at, mark, (size_t)mlen);
		if (!start)
			break;
		at = plot_take(out, (size_t)(start - out) + (size_t)mlen, len, i, &imgs[i]);
	}
}

static char *plot_batch_script(const char *const *scripts, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "reset\nset print '-'\nprint 'VMR-PLOT %zu'\n%s\nunset output\n", i, scripts[i]);
	fprintf(f, "set print '-'\nprint 'VMR-PLOT %zu'\n", n);
	fclose(f);
	return buf;
}

void plot_image_free(struct plot_image *img)
{
	free(img->data);
	memset(img, 0, sizeof(*img));
}

/* One gnuplot process draws scripts[0..n). */
static size_t plot_render_one(const char *const *scripts, size_t n, struct plot_image *imgs, char **why)
{
	int in, out, err;
	pid_t pid = plot_spawn(&in, &out, &err);
	if (pid < 0) {
		*why = xasprintf("cannot start gnuplot: %s", strerror(errno));
		return 0;
	}
	char *script = plot_batch_script(scripts, n);
	struct plot_buf o = { 0 }, e = { 0 };
	plot_pump(in, out, err, script, &o, &e);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (o.s)
		plot_split(o.s, o.len, n, imgs);
	size_t drawn = 0;
	for (size_t i = 0; i < n; i++)
		drawn += imgs[i].data != NULL;
	if (drawn < n)
		*why = e.len ? plot_first_line(e.s)
			     : xasprintf("gnuplot %s", WIFEXITED(status) ? "drew nothing" : "was killed");
	free(script);
	free(o.s);
	free(e.s);
	return drawn;
}

struct plot_job {
	const char *const *scripts;
	size_t n, drawn;
	struct plot_image *imgs;
	char *why;
};

static void *plot_job_run(void *arg)
{
	struct plot_job *j = arg;
	j->drawn = plot_render_one(j->scripts, j->n, j->imgs, &j->why);
	return NULL;
}

/* gnuplot draws a PNG in about 5 ms, most of it hinting the text's glyphs,
 * so large batches are shared among a gnuplot per CPU (at most
 * PLOT_MAX_JOBS), each with PLOT_JOB_MIN scripts at least: starting one
 * costs about as much as that many SVGs. */
enum { PLOT_MAX_JOBS = 4, PLOT_JOB_MIN = 32 };

static size_t plot_jobs(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t jobs = n / PLOT_JOB_MIN;
	if (cpus > 0 && jobs > (size_t)cpus)
		jobs = (size_t)cpus;
	if (jobs > PLOT_MAX_JOBS)
		jobs = PLOT_MAX_JOBS;
	return jobs ? jobs : 1;
}

size_t plot_render_batch(const char *const *scripts, size_t n, struct plot_image *imgs, char **why)
{
	*why = NULL;
	for (size_t i = 0; i < n; i++)
		imgs[i] = (struct plot_image){ 0 };
	if (!n)
		return 0;
	/* A gnuplot that dies early must not kill us with SIGPIPE. */
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigaction(SIGPIPE, &ign, &old);
	size_t njobs = plot_jobs(n), drawn = 0;
	struct plot_job job[PLOT_MAX_JOBS] = { 0 };
	pthread_t tid[PLOT_MAX_JOBS];
	bool started[PLOT_MAX_JOBS] = { false };
	for (size_t k = 0, first = 0; k < njobs; k++) {
		size_t cnt = n / njobs + (k < n % njobs);
		job[k] = (struct plot_job){ .scripts = scripts + first, .n = cnt, .imgs = imgs + first };
		first += cnt;
		/* The first share is drawn here; so is any a thread cannot take. */
		started[k] = k > 0 && pthread_create(&tid[k], NULL, plot_job_run, &job[k]) == 0;
	}
	for (size_t k = 0; k < njobs; k++)
		if (!started[k])
			plot_job_run(&job[k]);
	for (size_t k = 0; k < njobs; k++) {
		if (started[k])
			pthread_join(tid[k], NULL);
		drawn += job[k].drawn;
		if (!*why)
			*why = job[k].why;
		else
			free(job[k].why);
	}
	sigaction(SIGPIPE, &old, NULL);
	return drawn;
}

int plot_render(const char *script, struct plot_image *img, char **why)
{
	return plot_render_batch(&script, 1, img, why) == 1 ? 0 : -1;
}
