"""Queries on the busiest paths, with their SQL built once per connection.

Building SQL from a queryset costs more than running it for the small
queries every signed-in request, save and game page makes (half a
millisecond to a millisecond each, against a few hundred microseconds to
run). A :class:`Prepared` query is written with the ORM as usual, as a
function of ids (numbers, or text keys); its SQL is built the first time it
runs on a database connection, with stand-ins, and afterwards only the ids
change.
The rows come back as ``values_list`` would give them (the fields' own
conversions applied), and :func:`instance` makes model objects from them.

Plain writes on the same paths: :func:`insert` (a new row, its id read
back), :func:`update_fields` (an UPDATE of some fields of one row) and
:func:`update_many` (the same UPDATE for many rows, sent at once). None of
them sends model signals; nothing here listens for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet

# Numbers no query here holds as a constant, so a stand-in is never mistaken
# for one; positive and within a 32-bit integer, since Django finds no rows
# (and builds no SQL) for an id outside its column's range.
_STAND_IN_BASE = 2**31 - 1


def _stand_in(index: int, kind: type) -> int | str:
    if kind is int:
        return _STAND_IN_BASE - index
    if kind is str:
        return f"\ue000stand-in {index}\ue000"  # private-use marks: nobody's text
    raise TypeError("A prepared query takes whole numbers and text.")


class Prepared:
    """``build(**ids)`` returns a ``values_list`` queryset; run it as ``rows(**ids)``.

    The ids are whole numbers or text (a key), compared as they are. The
    queryset's shape must not depend on them (no ``none()`` for some), since
    one SQL text serves them all.
    """

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        # Built per thread and database: connections belong to their thread, the
        # SQL differs between databases, and what a thread built goes with it.
        self._local = threading.local()

    def _compile(self, connection, names: tuple[tuple[str, type], ...]):
        built = self._local.__dict__.setdefault("built", {})
        found = built.get(connection.alias)
        if found is not None and found[0] is connection and found[1] == names:
            return found
        stand_ins = {_stand_in(i, kind): name for i, (name, kind) in enumerate(names)}
        queryset = self.build(**{name: value for value, name in stand_ins.items()})
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        # Each parameter: the name of the id that goes there, or a constant.
        slots = [
            (stand_ins[p], None) if isinstance(p, int | str) and p in stand_ins else (None, p)
            for p in params
        ]
        found = built[connection.alias] = (connection, names, sql, slots, compiler)
        return found

    def rows(self, using: str = "default", **ids: int | str) -> list[tuple]:
        connection = connections[using]
        names = tuple(sorted((name, type(value)) for name, value in ids.items()))
        _, _, sql, slots, compiler = self._compile(connection, names)
        params = [ids[name] if name is not None else constant for name, constant in slots]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        return list(compiler.results_iter([fetched], tuple_expected=True))

    def first(self, using: str = "default", **ids: int | str) -> tuple | None:
        found = self.rows(using, **ids)
        return found[0] if found else None


def field_names(model: type[Model], prefix: str = "") -> list[str]:
    """Every stored field of ``model``, as ``values_list`` names (after ``prefix``)."""
    return [prefix + field.name for field in model._meta.concrete_fields]


def instance(model: type[Model], values: Sequence[Any], using: str = "default") -> Model:
    """A model object from the values of :func:`field_names`, as if read by the ORM."""
    attnames = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(using, attnames, list(values))


_UPDATES: dict[tuple, str] = {}


def _update_sql(connection, model: type[Model], names: Sequence[str], key: str) -> str:
    cache_key = (connection.vendor, model, tuple(names), key)
    sql = _UPDATES.get(cache_key)
    if sql is None:
        quote = connection.ops.quote_name
        meta = model._meta
        columns = ", ".join(f"{quote(meta.get_field(n).column)} = %s" for n in names)
        sql = f"UPDATE {quote(meta.db_table)} SET {columns} WHERE {quote(key)} = %s"
        _UPDATES[cache_key] = sql
    return sql


def _values(connection, obj: Model, names: Sequence[str]) -> list:
    fields = [obj._meta.get_field(name) for name in names]
    return [
        field.get_db_prep_save(getattr(obj, field.attname), connection=connection)
        for field in fields
    ]


def update_fields(obj: Model, names: Sequence[str], using: str = "default") -> None:
    """``obj.save(update_fields=names)`` without signals or ``auto_now``: set those first."""
    update_many([obj], names, using)


def update_many(objs: Sequence[Model], names: Sequence[str], using: str = "default") -> None:
    """The same fields of several rows of one model, in one batch."""
    if not objs:
        return
    connection = connections[using]
    model = type(objs[0])
    sql = _update_sql(connection, model, names, model._meta.pk.column)
    rows = [[*_values(connection, obj, names), obj.pk] for obj in objs]
    with connection.cursor() as cursor:
        if len(rows) == 1:
            cursor.execute(sql, rows[0])
        else:
            cursor.executemany(sql, rows)


_INSERTS: dict[tuple, str] = {}


def insert(obj: Model, using: str = "default") -> None:
    """``obj.save()`` for a new row: one INSERT, with the new id read back.

    Dates set on creation (``auto_now_add``, ``auto_now``) are set as save() would.
    """
    connection = connections[using]
    meta = obj._meta
    if not connection.features.can_return_columns_from_insert:
        obj.save(using=using)
        return
    fields = [field for field in meta.local_concrete_fields if field is not meta.pk]
    cache_key = (connection.vendor, type(obj))
    sql = _INSERTS.get(cache_key)
    if sql is None:
        quote = connection.ops.quote_name
        columns = ", ".join(quote(field.column) for field in fields)
        marks = ", ".join(["%s"] * len(fields))
        sql = (
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks}) "
            f"RETURNING {quote(meta.pk.column)}"
        )
        _INSERTS[cache_key] = sql
    values = [
        field.get_db_prep_save(field.pre_save(obj, add=True), connection=connection)
        for field in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        (pk,) = cursor.fetchone()
    setattr(obj, meta.pk.attname, pk)
    obj._state.adding = False
    obj._state.db = using
