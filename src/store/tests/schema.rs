//! The two engines' schemas agree: after every migration of each dialect, the same tables with
//! the same columns (type, nullability, default, primary key), the same indexes and the same
//! triggers. Runs when a PostgreSQL test server is named (see `store::testing`).

use super::*;
use crate::store::testing;
use std::collections::BTreeSet;

/// One column, in words both engines can be brought to.
fn column(
    table: &str,
    name: &str,
    ty: &str,
    nullable: bool,
    default: Option<String>,
    pk: bool,
) -> String {
    let ty = match ty.to_ascii_lowercase().as_str() {
        "integer" | "bigint" => "integer",
        "text" => "text",
        other => return format!("{table}.{name}: unknown type {other}"),
    };
    let default = default.map(|d| {
        d.trim_end_matches("::text")
            .trim_matches(|c| c == '(' || c == ')')
            .to_string()
    });
    format!(
        "{table}.{name} {ty}{}{}{}",
        if nullable && !pk {
            " null"
        } else {
            " not null"
        },
        default.map(|d| format!(" default {d}")).unwrap_or_default(),
        if pk { " key" } else { "" }
    )
}

#[derive(Debug, PartialEq)]
struct Schema {
    columns: BTreeSet<String>,
    indexes: BTreeSet<String>,
    triggers: BTreeSet<String>,
}

fn sqlite_schema(store: &Store) -> Schema {
    let conn = store.connection();
    let tables = conn
        .query_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            [],
            |r| r.get::<_, String>(0),
        )
        .unwrap();
    let mut columns = BTreeSet::new();
    for table in tables {
        let rows = conn
            .query_all(
                "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)",
                [&table],
                |r| {
                    Ok(column(
                        &table,
                        &r.get::<_, String>(0)?,
                        &r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)? == 0,
                        r.get(3)?,
                        r.get::<_, i64>(4)? > 0,
                    ))
                },
            )
            .unwrap();
        columns.extend(rows);
    }
    let names = |kind: &str| -> BTreeSet<String> {
        conn.query_all(
            "SELECT name FROM sqlite_master WHERE type = ?1 AND sql IS NOT NULL",
            [kind],
            |r| r.get(0),
        )
        .unwrap()
        .into_iter()
        .collect()
    };
    Schema {
        columns,
        indexes: names("index"),
        triggers: names("trigger"),
    }
}

fn postgres_schema(store: &Store) -> Schema {
    let conn = store.connection();
    let columns = conn
        .query_all(
            "SELECT c.table_name::text, c.column_name::text, c.data_type::text,
                    c.is_nullable::text, c.column_default::text,
                    EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                            JOIN information_schema.table_constraints t
                              ON t.constraint_name = k.constraint_name
                             AND t.table_schema = k.table_schema
                            WHERE t.constraint_type = 'PRIMARY KEY'
                              AND k.table_schema = c.table_schema
                              AND k.table_name = c.table_name
                              AND k.column_name = c.column_name)
             FROM information_schema.columns c
             WHERE c.table_schema = current_schema() AND c.table_name <> 'schema_version'",
            [],
            |r| {
                Ok(column(
                    &r.get::<_, String>(0)?,
                    &r.get::<_, String>(1)?,
                    &r.get::<_, String>(2)?,
                    r.get::<_, String>(3)? == "YES",
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .unwrap();
    // Indexes made by a constraint (primary keys, UNIQUE) are SQLite's automatic ones.
    let indexes = conn
        .query_all(
            "SELECT i.indexname::text FROM pg_indexes i
             WHERE i.schemaname = current_schema() AND NOT EXISTS (
                 SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
            [],
            |r| r.get(0),
        )
        .unwrap()
        .into_iter()
        .collect();
    let triggers = conn
        .query_all(
            "SELECT DISTINCT trigger_name::text FROM information_schema.triggers
             WHERE trigger_schema = current_schema()",
            [],
            |r| r.get(0),
        )
        .unwrap()
        .into_iter()
        .collect();
    Schema {
        columns: columns.into_iter().collect(),
        indexes,
        triggers,
    }
}

#[test]
fn both_dialects_migrate_to_the_same_schema() {
    let sqlite = sqlite_schema(&Store::open_in_memory().unwrap());
    assert!(
        sqlite
            .columns
            .contains("matches.version integer not null default 0")
    );
    assert!(sqlite.columns.contains("registrations.came integer null"));
    let Some(url) = testing::postgres_url() else {
        eprintln!(
            "no PostgreSQL server named in {}: SQLite only",
            testing::POSTGRES_VARIABLE
        );
        return;
    };
    let postgres = postgres_schema(&testing::scratch_postgres(&url).unwrap());
    let only = |a: &BTreeSet<String>, b: &BTreeSet<String>| -> Vec<String> {
        a.difference(b).cloned().collect()
    };
    assert_eq!(
        (
            only(&sqlite.columns, &postgres.columns),
            only(&postgres.columns, &sqlite.columns)
        ),
        (vec![], vec![]),
        "columns only on SQLite, only on PostgreSQL"
    );
    assert_eq!(postgres.columns.len(), sqlite.columns.len());
    assert_eq!(sqlite.indexes, postgres.indexes);
    assert_eq!(sqlite.triggers, postgres.triggers);
}
