//! HTML to the text a document is cut from: what a reader of the page sees, written as
//! markdown so the chunker finds its structure — headings become `#` lines that name
//! sections, list items `- ` lines, table rows `| a | b |` lines, preformatted text a fenced
//! block. Scripts, styles, templates, navigation, embedded graphics and hidden elements give
//! no text; neither do comments. One pass over the markup, no tree: hostile nesting costs
//! nothing, and an element left open (a `<script>` never closed) hides the rest of the page
//! rather than leaking its code into the text.

/// Elements whose content is not read as markup (the HTML standard's raw text and escapable
/// raw text elements): it ends only at the element's own end tag.
const RAW: &[&str] = &[
    "script", "style", "textarea", "title", "xmp", "noembed", "noframes", "noscript",
];

/// Raw text elements that give no text to the document (`title` is read for the title;
/// `textarea` holds what a reader sees as text).
const RAW_HIDDEN: &[&str] = &["script", "style", "xmp", "noembed", "noframes", "noscript"];

/// Elements whose whole content is left out: code, navigation, graphics, embedded objects,
/// form controls.
const SKIPPED: &[&str] = &[
    "template", "nav", "svg", "math", "iframe", "object", "canvas", "select", "button",
];

/// Elements with no content, which never have an end tag.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Elements that stand apart from the text around them: a paragraph break before and after.
const BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "header",
    "hgroup",
    "hr",
    "html",
    "legend",
    "main",
    "ol",
    "p",
    "section",
    "summary",
    "table",
    "ul",
];

/// The named character references read (the ones pages commonly write); any other is left as
/// written. Numeric references (`&#8212;`, `&#x2014;`) are all read.
const ENTITIES: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", ' '),
    ("ensp", ' '),
    ("emsp", ' '),
    ("thinsp", ' '),
    ("ndash", '–'),
    ("mdash", '—'),
    ("hellip", '…'),
    ("lsquo", '‘'),
    ("rsquo", '’'),
    ("sbquo", '‚'),
    ("ldquo", '“'),
    ("rdquo", '”'),
    ("bdquo", '„'),
    ("laquo", '«'),
    ("raquo", '»'),
    ("bull", '•'),
    ("middot", '·'),
    ("copy", '©'),
    ("reg", '®'),
    ("trade", '™'),
    ("euro", '€'),
    ("pound", '£'),
    ("yen", '¥'),
    ("cent", '¢'),
    ("deg", '°'),
    ("times", '×'),
    ("divide", '÷'),
    ("plusmn", '±'),
    ("minus", '−'),
    ("sect", '§'),
    ("para", '¶'),
    ("larr", '←'),
    ("rarr", '→'),
    ("uarr", '↑'),
    ("darr", '↓'),
    ("check", '✓'),
];

/// A page read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// What a reader sees, as markdown.
    pub text: String,
    /// The page's `<title>`, if it has one with text.
    pub title: Option<String>,
}

/// Reads `html` as a reader sees it.
pub fn to_text(html: &str) -> Page {
    let mut w = Writer::default();
    let mut title = None;
    let bytes = html.as_bytes();
    let mut at = 0;
    while at < html.len() {
        let Some(lt) = html[at..].find('<').map(|i| at + i) else {
            w.text(&decode(&html[at..]));
            break;
        };
        if lt > at {
            w.text(&decode(&html[at..lt]));
        }
        let rest = &html[lt..];
        if let Some(next) = after_comment(html, lt) {
            at = next;
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            at = rest.find('>').map_or(html.len(), |i| lt + i + 1);
            continue;
        }
        let closing = rest.starts_with("</");
        let name_at = lt + if closing { 2 } else { 1 };
        if !bytes.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
            // A `<` that starts no tag is text.
            w.text("<");
            at = lt + 1;
            continue;
        }
        let Some(tag) = Tag::read(html, name_at) else {
            // A tag never closed: the rest is not text.
            break;
        };
        at = tag.end;
        let name = tag.name.as_str();
        if closing {
            w.close(name);
            continue;
        }
        if RAW.contains(&name) {
            let (content, next) = raw_content(html, at, name);
            at = next;
            if name == "title" {
                let t = collapse(&decode(content));
                if title.is_none() && !t.is_empty() {
                    title = Some(t);
                }
            } else if !RAW_HIDDEN.contains(&name) && !tag.hidden {
                w.text(&decode(content));
            }
            continue;
        }
        if VOID.contains(&name) {
            w.void(name);
            continue;
        }
        if tag.self_closing {
            continue;
        }
        if SKIPPED.contains(&name) || tag.hidden {
            at = skip_element(html, at, name);
            continue;
        }
        w.open(name);
    }
    Page {
        text: w.finish(),
        title,
    }
}

/// A start or end tag's name and what the reading needs of its attributes.
struct Tag {
    /// Its name, lower case.
    name: String,
    /// Where the text after it begins.
    end: usize,
    /// Written `<x/>`.
    self_closing: bool,
    /// It has the `hidden` attribute or `aria-hidden="true"`.
    hidden: bool,
}

impl Tag {
    /// The tag whose name begins at `at`, to its `>` (quoted values may hold `>`), or `None`
    /// when the page ends first.
    fn read(html: &str, at: usize) -> Option<Tag> {
        let b = html.as_bytes();
        let mut i = at;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'>' && b[i] != b'/' {
            i += 1;
        }
        let name = html[at..i].to_ascii_lowercase();
        let mut hidden = false;
        let mut self_closing = false;
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            match b.get(i)? {
                b'>' => {
                    return Some(Tag {
                        name,
                        end: i + 1,
                        self_closing,
                        hidden,
                    })
                }
                b'/' => {
                    self_closing = true;
                    i += 1;
                    continue;
                }
                _ => self_closing = false,
            }
            let from = i;
            while i < b.len() && !b"\t\n\x0c\r />=".contains(&b[i]) {
                i += 1;
            }
            let attr = html[from..i].to_ascii_lowercase();
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let mut value = "";
            if b.get(i) == Some(&b'=') {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                match b.get(i)? {
                    &q @ (b'"' | b'\'') => {
                        let close = html[i + 1..].find(q as char)? + i + 1;
                        value = &html[i + 1..close];
                        i = close + 1;
                    }
                    _ => {
                        let from = i;
                        while i < b.len()
                            && !b
                                .get(i)
                                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'>')
                        {
                            i += 1;
                        }
                        value = &html[from..i];
                    }
                }
            }
            if attr == "hidden" || (attr == "aria-hidden" && value.eq_ignore_ascii_case("true")) {
                hidden = true;
            }
            if i == from {
                // A character no attribute name may hold (`=` alone): step over it.
                i += 1;
            }
        }
    }
}

/// The content of raw text element `name` opened just before `at`, and where the page goes
/// on after its end tag (the page's end when it has none).
fn raw_content<'a>(html: &'a str, at: usize, name: &str) -> (&'a str, usize) {
    match find_end_tag(html, at, name) {
        Some((start, next)) => (&html[at..start], next),
        None => (&html[at..], html.len()),
    }
}

/// Where element `name` opened just before `at` ends, counting the same elements nested in
/// it (the page's end when it never does).
fn skip_element(html: &str, at: usize, name: &str) -> usize {
    let mut depth = 1usize;
    let mut i = at;
    while let Some(lt) = html[i..].find('<').map(|p| i + p) {
        let rest = &html[lt..];
        if let Some(next) = after_comment(html, lt) {
            i = next;
            continue;
        }
        let closing = rest.starts_with("</");
        let name_at = lt + if closing { 2 } else { 1 };
        if !tag_named(html, name_at, name) {
            i = lt + 1;
            continue;
        }
        let Some(tag) = Tag::read(html, name_at) else {
            return html.len();
        };
        i = tag.end;
        if closing {
            depth -= 1;
            if depth == 0 {
                return i;
            }
        } else if !tag.self_closing {
            depth += 1;
        }
    }
    html.len()
}

/// Where the page goes on after the comment beginning at `lt` (its end when it is never
/// closed), if one begins there.
fn after_comment(html: &str, lt: usize) -> Option<usize> {
    let body = html[lt..].strip_prefix("<!--")?;
    Some(body.find("-->").map_or(html.len(), |i| lt + 4 + i + 3))
}

/// Whether a tag named `name` (any case) begins at `at`.
fn tag_named(html: &str, at: usize, name: &str) -> bool {
    let b = html.as_bytes();
    b.len() >= at + name.len()
        && b[at..at + name.len()].eq_ignore_ascii_case(name.as_bytes())
        && b.get(at + name.len())
            .is_none_or(|c| c.is_ascii_whitespace() || *c == b'>' || *c == b'/')
}

/// The start of the end tag `</name` at or after `at`, and where the page goes on after it.
fn find_end_tag(html: &str, at: usize, name: &str) -> Option<(usize, usize)> {
    let mut i = at;
    while let Some(p) = html[i..].find("</").map(|p| i + p) {
        if tag_named(html, p + 2, name) {
            let end = html[p..].find('>').map_or(html.len(), |e| p + e + 1);
            return Some((p, end));
        }
        i = p + 2;
    }
    None
}

/// `text` with its character references read.
fn decode(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match reference(rest) {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character a reference at the start of `s` (`&…;`) stands for, and its length.
fn reference(s: &str) -> Option<(char, usize)> {
    // Only the next few bytes are looked at: a page of `&` without `;` stays one pass.
    let semi = s.bytes().skip(1).take(32).position(|b| b == b';')? + 1;
    let body = &s[1..semi];
    let c = if let Some(num) = body.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        // What the standard replaces: NUL, surrogates, beyond Unicode; controls read as space.
        match char::from_u32(code).filter(|&c| c != '\0') {
            Some(c) if c.is_control() && !matches!(c, '\n' | '\t') => ' ',
            Some(c) => c,
            None => '\u{FFFD}',
        }
    } else {
        ENTITIES.iter().find(|(n, _)| *n == body)?.1
    };
    Some((c, semi + 1))
}

/// `text` on one line, its white space runs single spaces.
fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The markdown being written, with what is open around the text.
#[derive(Default)]
struct Writer {
    out: String,
    /// White space seen since the last character written.
    space: bool,
    /// Open `<pre>` elements: their text is kept as written.
    pre: usize,
    /// Inside a heading: its text stays on one line.
    heading: bool,
    /// Open table cells: their blocks are spaces, so a row stays one line.
    cell: usize,
    /// Cells begun in the current row.
    cells: usize,
    /// Open lists, for the indentation of their items.
    lists: usize,
}

impl Writer {
    /// Writes text as a reader sees it: white space runs are one space, except in `<pre>`.
    fn text(&mut self, text: &str) {
        if self.pre > 0 {
            self.out.push_str(text);
            return;
        }
        for c in text.chars() {
            if c.is_whitespace() {
                self.space = true;
                continue;
            }
            if self.space && !self.out.is_empty() && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
            }
            self.space = false;
            self.out.push(c);
        }
    }

    /// Ends the line, with `blank` blank lines after it (none at the start).
    fn line(&mut self, blank: usize) {
        self.space = false;
        if self.heading || self.cell > 0 {
            self.space = true;
            return;
        }
        let kept = self.out.trim_end_matches([' ', '\t']).len();
        self.out.truncate(kept);
        if self.out.is_empty() {
            return;
        }
        let have = self.out.len() - self.out.trim_end_matches('\n').len();
        for _ in have..=blank {
            self.out.push('\n');
        }
    }

    fn open(&mut self, name: &str) {
        if let Some(level) = heading_level(name) {
            self.line(1);
            self.out.push_str(&"#".repeat(level));
            self.out.push(' ');
            self.heading = true;
            return;
        }
        match name {
            "pre" => {
                self.line(1);
                self.out.push_str("```\n");
                self.pre += 1;
            }
            "li" => {
                self.line(0);
                self.out
                    .push_str(&"  ".repeat(self.lists.saturating_sub(1)));
                self.out.push_str("- ");
            }
            "ul" | "ol" => {
                self.lists += 1;
                self.line(if self.lists == 1 { 1 } else { 0 });
            }
            "tr" => {
                self.cell = 0;
                self.line(0);
                self.out.push('|');
                self.cells = 0;
            }
            "td" | "th" => {
                if self.cells > 0 {
                    self.out.push_str(" |");
                }
                self.out.push(' ');
                self.cells += 1;
                self.cell += 1;
                self.space = false;
            }
            _ if BLOCKS.contains(&name) => self.line(1),
            _ => {}
        }
    }

    fn close(&mut self, name: &str) {
        if heading_level(name).is_some() {
            self.heading = false;
            self.line(1);
            return;
        }
        match name {
            "pre" if self.pre > 0 => {
                self.pre -= 1;
                if !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                self.out.push_str("```");
                self.line(1);
            }
            "td" | "th" => self.cell = self.cell.saturating_sub(1),
            "tr" => {
                self.cell = 0;
                if self.cells > 0 {
                    self.out.push_str(" |");
                }
                self.line(0);
            }
            "li" => self.line(0),
            "ul" | "ol" => {
                self.lists = self.lists.saturating_sub(1);
                self.line(if self.lists == 0 { 1 } else { 0 });
            }
            _ if BLOCKS.contains(&name) => self.line(1),
            _ => {}
        }
    }

    fn void(&mut self, name: &str) {
        match name {
            "br" if self.pre > 0 => self.out.push('\n'),
            "br" => self.line(0),
            "hr" => self.line(1),
            _ => {}
        }
    }

    fn finish(mut self) -> String {
        if self.pre > 0 {
            self.out.push_str("\n```");
        }
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        self.out
    }
}

/// The level of heading element `name` (`h1` to `h6`).
fn heading_level(name: &str) -> Option<usize> {
    match name.as_bytes() {
        [b'h', d @ b'1'..=b'6'] => Some(usize::from(d - b'0')),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_reads_as_markdown_without_its_code() {
        let page = to_text(
            r#"<!doctype html><html><head><title>Plan &amp; budget</title>
            <style>body { color: red }</style><script>alert("x < y")</script></head>
            <body><nav><a href="/">Home</a></nav>
            <h1>Plan  2027</h1><p>The Q4 budget&nbsp;priorities are <b>leases</b>.<br>And audits.</p>
            <!-- a comment -->
            <h2 hidden>Secret</h2>
            <ul><li>One</li><li>Two<ul><li>Two&#8212;a</li></ul></li></ul>
            <table><tr><th>Item</th><th>Cost</th></tr><tr><td><p>Lease</p></td><td>10</td></tr></table>
            <pre><code>let x = 1;
  y &lt; 2</code></pre>
            <script>never()</script><p>End &unknown; 3 < 4</p></body></html>"#,
        );
        assert_eq!(page.title.as_deref(), Some("Plan & budget"));
        assert_eq!(
            page.text,
            "# Plan 2027\n\nThe Q4 budget priorities are leases.\nAnd audits.\n\n\
             - One\n- Two\n  - Two—a\n\n\
             | Item | Cost |\n| Lease | 10 |\n\n\
             ```\nlet x = 1;\n  y < 2\n```\n\n\
             End &unknown; 3 < 4"
        );
    }

    #[test]
    fn what_is_left_open_hides_the_rest_instead_of_leaking_it() {
        assert_eq!(
            to_text("<p>Before</p><script>var secret = 1;").text,
            "Before"
        );
        assert_eq!(to_text("<p>Before</p><style>p{}").text, "Before");
        assert_eq!(to_text("<p>Before</p><nav><nav>x</nav>menu").text, "Before");
        assert_eq!(to_text("<p>Before</p><!-- comment").text, "Before");
        assert_eq!(to_text("<p>Before</p><a href=\"x>").text, "Before");
        // A script's text that looks like an end tag of something else does not end it.
        assert_eq!(
            to_text("<script>document.write('</p>')</script>After").text,
            "After"
        );
        // Nested skipped elements of the same name are counted.
        assert_eq!(
            to_text("<template><template>a</template>b</template>c").text,
            "c"
        );
    }

    #[test]
    fn references_are_read_and_bad_ones_are_replaced_or_kept() {
        assert_eq!(
            decode("&#65;&#x42;&#0;&#xD800;&#1;&#99999999;"),
            "AB\u{FFFD}\u{FFFD} \u{FFFD}"
        );
        assert_eq!(decode("&lt;b&gt; &amp &AMP; &"), "<b> &amp &AMP; &");
        assert_eq!(to_text("a &lt;script&gt; b").text, "a <script> b");
    }

    #[test]
    fn text_that_is_not_markup_is_text() {
        assert_eq!(to_text("1 < 2 and 3 <4").text, "1 < 2 and 3 <4");
        assert_eq!(to_text("plain words").text, "plain words");
        assert_eq!(to_text("").text, "");
        assert_eq!(to_text("<p>  </p><script>x</script>").text, "");
    }
}
