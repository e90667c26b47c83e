//! Values that cross between the store and either database: one `Value` type for parameters
//! and columns, the conversions from and to Rust types, and the `params!` list of parameters.

use super::DbError;

/// One SQL value, as both engines can hold it (booleans are integers 0 and 1).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A Rust value that binds as an SQL parameter.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

/// A Rust value that a column converts to.
pub trait FromValue: Sized {
    /// `Err` holds what was wrong, in words ("expected an integer, found text").
    fn from_value(value: &Value) -> Result<Self, String>;
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a real number",
            Value::Text(_) => "text",
            Value::Blob(_) => "a blob",
        }
    }

    fn wrong(&self, wanted: &str) -> String {
        format!("expected {wanted}, found {}", self.kind())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(*self as i64)
            }
        }

        impl FromValue for $t {
            fn from_value(value: &Value) -> Result<Self, String> {
                match value {
                    Value::Int(i) => <$t>::try_from(*i)
                        .map_err(|_| format!("{i} is out of range for {}", stringify!($t))),
                    other => Err(other.wrong("an integer")),
                }
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Int(i) => Ok(*i != 0),
            other => Err(other.wrong("an integer")),
        }
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Real(f) => Ok(*f),
            Value::Int(i) => Ok(*i as f64),
            other => Err(other.wrong("a number")),
        }
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Text(s) => Ok(s.clone()),
            other => Err(other.wrong("text")),
        }
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Blob(b) => Ok(b.clone()),
            other => Err(other.wrong("a blob")),
        }
    }
}

/// A statement's parameters: `[]`, an array of one type, `params![..]` or a `Vec<Value>`.
pub trait Params {
    fn into_values(self) -> Vec<Value>;
}

impl Params for [&dyn ToValue; 0] {
    fn into_values(self) -> Vec<Value> {
        Vec::new()
    }
}

impl Params for &[&dyn ToValue] {
    fn into_values(self) -> Vec<Value> {
        self.iter().map(|v| v.to_value()).collect()
    }
}

impl Params for Vec<Value> {
    fn into_values(self) -> Vec<Value> {
        self
    }
}

macro_rules! arrays {
    ($($n:literal),*) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn into_values(self) -> Vec<Value> {
                self.iter().map(ToValue::to_value).collect()
            }
        }
    )*};
}

arrays!(1, 2, 3, 4, 5, 6, 7, 8);

macro_rules! tuples {
    ($(($($t:ident $i:tt),+)),*) => {$(
        impl<$($t: ToValue),+> Params for ($($t,)+) {
            fn into_values(self) -> Vec<Value> {
                vec![$(self.$i.to_value()),+]
            }
        }
    )*};
}

tuples!(
    (A 0),
    (A 0, B 1),
    (A 0, B 1, C 2),
    (A 0, B 1, C 2, D 3),
    (A 0, B 1, C 2, D 3, E 4),
    (A 0, B 1, C 2, D 3, E 4, F 5)
);

/// A list of parameters of different types, as `rusqlite::params!` makes.
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::store::db::ToValue]
    };
    ($($p:expr),+ $(,)?) => {
        &[$(&$p as &dyn $crate::store::db::ToValue),+] as &[&dyn $crate::store::db::ToValue]
    };
}

pub(crate) use params;

/// A row of a result, its columns read by position.
pub struct Row {
    pub(super) values: Vec<Value>,
}

impl Row {
    /// Column `index` as a `T`; the error names the column and what it held.
    pub fn get<I: ColumnIndex, T: FromValue>(&self, index: I) -> Result<T, DbError> {
        let index = index.position();
        let value = self.values.get(index).ok_or(DbError::Column {
            index,
            detail: format!("the row has {} columns", self.values.len()),
        })?;
        T::from_value(value).map_err(|detail| DbError::Column { index, detail })
    }
}

/// How a column is named in [`Row::get`]: by its position, from 0.
pub trait ColumnIndex {
    fn position(self) -> usize;
}

impl ColumnIndex for usize {
    fn position(self) -> usize {
        self
    }
}
