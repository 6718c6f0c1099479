//! Where in a JSON text a deserialiser stopped, as a path (`items[0].importance`): found by
//! reading the text up to the error's position, so arguments of every type are read by plain
//! serde with no wrapper around each field's deserialiser (which doubled the code of every
//! argument type in the WebAssembly download).

/// One open object (the key whose value is being read, once read) or array (the index).
enum Frame {
    Object(Option<String>),
    Array(usize),
}

/// The byte offset of serde_json's `line` (from 1) and `column` (bytes from the line's
/// start) in `text`; the end of the text when they are past it.
pub(super) fn offset(text: &str, line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    (start + column).min(text.len())
}

/// The path of the value `text` was at, at byte `end`: the keys and indices of the objects
/// and arrays open there, down to the value just read or being read (a closed object or array
/// counts as that value). Empty when that is the whole text. Segments are separated by `.`,
/// indices written `[i]`.
pub(super) fn path_at(text: &str, end: usize) -> String {
    let bytes = text.as_bytes();
    let end = end.min(bytes.len());
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        match bytes[i] {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object(key)) => *key = None,
                Some(Frame::Array(n)) => *n += 1,
                None => {}
            },
            b'"' => {
                let close = string_end(bytes, i);
                if close > end {
                    // The deserialiser stopped inside this string: a key not read yet, or
                    // the value of the key already read.
                    break;
                }
                if let Some(Frame::Object(key @ None)) = stack.last_mut() {
                    // A key, decoded as serde decodes it (escapes and all).
                    *key =
                        Some(serde_json::from_str::<String>(&text[i..close]).unwrap_or_default());
                }
                i = close;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Frame::Object(None) => {}
            Frame::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    path
}

/// The byte after the string starting at `start` (a `"`), or the text's end.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_name_keys_and_indices_down_to_the_value_read() {
        let t = r#"{"items": [{"content": "a"}, {"importance": "high"}]}"#;
        let at = |s: &str| path_at(t, t.find(s).unwrap() + s.len());
        assert_eq!(at(r#""high""#), "items[1].importance");
        assert_eq!(at(r#""importance""#), "items[1].importance");
        assert_eq!(at(r#""a"}"#), "items[0]");
        assert_eq!(at("[{"), "items[0]");
        assert_eq!(path_at(t, t.len()), "");
        assert_eq!(path_at(t, 1), "");
        assert_eq!(path_at("[1, 2, [3", 9), "[2][0]");
        // Escaped keys are decoded; commas and brackets inside strings are text.
        let t = r#"{"a\"b": {"x,]}": 1, "n": true}}"#;
        assert_eq!(path_at(t, t.find("true").unwrap() + 4), "a\"b.n");
    }

    #[test]
    fn offsets_follow_serde_json_lines_and_columns() {
        let t = "{\n  \"a\": 1,\n  \"b\": x\n}";
        let e = serde_json::from_str::<serde_json::Value>(t).unwrap_err();
        let i = offset(t, e.line(), e.column());
        assert_eq!(&t[i - 1..i], "x");
        assert_eq!(path_at(t, i), "b");
        assert_eq!(offset(t, 9, 9), t.len());
    }
}
