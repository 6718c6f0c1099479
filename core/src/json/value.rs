//! Typed values read from a parsed JSON value, with a bad value's path (`items[0].importance`)
//! gathered as the error leaves each object and array.
//!
//! Every argument type is read through this one reader of one concrete type: serde_json's
//! text reader, generic over each type's visitor, put a parser and a positional (array) reader
//! into the WebAssembly module for every argument and record type. A struct is read from an
//! object only.

use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, MapAccessDeserializer};
use serde::de::{
    self, Deserialize, DeserializeSeed, Expected, IntoDeserializer, Unexpected, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

/// Why a value did not read, and where. Boxed: every field of every struct read passes its
/// error on, and a one-pointer error is one store at each of those places, not a copy.
#[derive(Debug)]
pub(super) struct Error(Box<Fault>);

/// What an [`Error`] holds: the reason, and the keys and indices from the value read down to
/// the bad one, innermost first while the error unwinds.
#[derive(Debug)]
struct Fault {
    reason: String,
    segments: Vec<Segment>,
}

#[derive(Debug)]
enum Segment {
    Key(String),
    Index(usize),
}

impl Error {
    /// The error, inside the value under `key`. Kept out of line: every field type's reader
    /// calls it.
    #[cold]
    #[inline(never)]
    fn under_key(mut self, key: &str) -> Error {
        self.0.segments.push(Segment::Key(key.to_string()));
        self
    }

    /// The error, inside the item at `index`.
    #[cold]
    #[inline(never)]
    fn at_index(mut self, index: usize) -> Error {
        self.0.segments.push(Segment::Index(index));
        self
    }

    /// Why the value did not read.
    pub fn reason(self) -> String {
        self.0.reason
    }

    /// The bad value's path (`items[0].importance`), or `""` when it is the value read.
    pub fn path(&self) -> String {
        let mut path = String::new();
        for segment in self.0.segments.iter().rev() {
            match segment {
                Segment::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Segment::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        path
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.reason)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(reason: T) -> Error {
        Error(Box::new(Fault {
            reason: reason.to_string(),
            segments: Vec::new(),
        }))
    }
}

/// A parsed JSON value as a serde deserialiser.
pub(super) struct Reader<'a>(pub &'a Value);

impl<'a> Reader<'a> {
    fn unexpected(&self) -> Unexpected<'a> {
        match self.0 {
            Value::Null => Unexpected::Unit,
            Value::Bool(b) => Unexpected::Bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => Unexpected::Unsigned(u),
                (None, Some(i)) => Unexpected::Signed(i),
                _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => Unexpected::Str(s),
            Value::Array(_) => Unexpected::Seq,
            Value::Object(_) => Unexpected::Map,
        }
    }

    /// This value, where one `expected` was wanted: serde's own words ("invalid type: integer
    /// `7`, expected a string"). One copy serves every visitor.
    #[cold]
    #[inline(never)]
    fn wrong(&self, expected: &dyn Expected) -> Error {
        de::Error::invalid_type(self.unexpected(), expected)
    }

    /// A number to `visitor`, as the smallest kind that holds it; anything else is the wrong
    /// kind. Every numeric type reads through this, not through `deserialize_any`'s reading
    /// of every kind: the reader of each type holds only the kinds it can take.
    fn number<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            _ => Err(self.wrong(&visitor)),
        }
    }
}

/// The typed readers of one kind of JSON value, each reading that kind and calling anything
/// else the wrong kind (the same words `deserialize_any`'s visitor would give).
macro_rules! numbers {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                self.number(visitor)
            }
        )*
    };
}

impl<'de> de::Deserializer<'de> for Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_borrowed_str(s),
            Value::Array(items) => visitor.visit_seq(Items {
                items: items.iter(),
                index: 0,
            }),
            Value::Object(map) => visitor.visit_map(Entries::new(map)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(Entries::new(map)),
            _ => Err(self.wrong(&visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) if map.len() == 1 => {
                visitor.visit_enum(MapAccessDeserializer::new(Entries::new(map)))
            }
            _ => Err(self.wrong(&"string or map")),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Bool(b) => visitor.visit_bool(*b),
            _ => Err(self.wrong(&visitor)),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_borrowed_str(s),
            _ => Err(self.wrong(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items {
                items: items.iter(),
                index: 0,
            }),
            _ => Err(self.wrong(&visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(Entries::new(map)),
            _ => Err(self.wrong(&visitor)),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    forward_to_deserialize_any! {
        char bytes byte_buf unit unit_struct tuple tuple_struct identifier ignored_any
    }
}

/// An array's items, each read at its index.
struct Items<'a> {
    items: std::slice::Iter<'a, Value>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        seed.deserialize(Reader(item))
            .map(Some)
            .map_err(|e| e.at_index(index))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// An object's entries, each value read under its key.
struct Entries<'a> {
    entries: serde_json::map::Iter<'a>,
    value: Option<(&'a String, &'a Value)>,
}

impl<'a> Entries<'a> {
    fn new(map: &'a Map<String, Value>) -> Entries<'a> {
        Entries {
            entries: map.iter(),
            value: None,
        }
    }
}

impl<'a> Entries<'a> {
    /// The entry whose key was read last, for its value. Out of line: every field type's
    /// reader calls it.
    #[inline(never)]
    fn entry(&mut self) -> Result<(&'a String, &'a Value), Error> {
        self.value
            .take()
            .ok_or_else(|| de::Error::custom("a value was read before its key"))
    }
}

impl<'de> de::MapAccess<'de> for Entries<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some((key, value));
        seed.deserialize(BorrowedStrDeserializer::<Error>::new(key))
            .map(Some)
            .map_err(|e| e.under_key(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self.entry()?;
        seed.deserialize(Reader(value))
            .map_err(|e| e.under_key(key))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A JSON value that names no key twice in an object (see [`super::parse`]).
pub(super) struct Strict(pub Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Strict::deserialize(d).map(|s| s.0)
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if entries.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
            }
            let Strict(value) = map.next_value()?;
            entries.insert(key, value);
        }
        Ok(Value::Object(entries))
    }
}
