"""Python files parsed with libcst: the module, byte spans of nodes in the file's own bytes, and the
qualified names (through imports, aliases and scopes) of names and attributes."""
from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize
from functools import cached_property

import libcst as cst
from libcst.metadata import ByteSpanPositionProvider, MetadataWrapper

from migrate.context import FileContext
from migrate.model import Edit
from migrate.python.names import QualifiedNames

WORD = re.compile(rb"[A-Za-z0-9_]")

# What parsing a file that is not valid Python raises: libcst's own error; SyntaxError from the encoding
# detection (bytes that are not UTF-8 and no coding cookie, or an unknown codec); UnicodeDecodeError
# (a ValueError) for bytes the declared codec cannot decode; RecursionError and MemoryError for nesting too deep.
PARSE_ERRORS = (cst.ParserSyntaxError, SyntaxError, ValueError, RecursionError, MemoryError)


class PythonContext(FileContext):
    kind = "python"
    parser = "libcst"
    all_or_nothing = True  # a file that does not parse is copied unchanged

    @cached_property
    def _parsed(self) -> tuple[MetadataWrapper | None, Exception | None]:
        deep = _too_deep(self.data)
        if deep is not None:
            return None, deep
        try:
            return MetadataWrapper(cst.parse_module(self.data), unsafe_skip_copy=True), None  # freshly parsed: no copy needed
        except PARSE_ERRORS as exc:
            return None, exc

    @property
    def wrapper(self) -> MetadataWrapper | None:
        """The parsed module with byte positions, or None when the file is not valid Python."""
        return self._parsed[0]

    @cached_property
    def positions(self):
        return self.wrapper.resolve(ByteSpanPositionProvider) if self.wrapper else {}

    @cached_property
    def _names(self):
        return QualifiedNames(self.wrapper.module) if self.wrapper else None

    def qualified_names(self, node: cst.CSTNode) -> set[str]:
        """What `node` (a Name or Attribute) names, seen through imports and scopes (migrate/python/names.py):
        `np.cuda` after `import cupy as np` is {"cupy.cuda"}; an empty set when it cannot tell."""
        return self._names.of(node) if self._names else set()

    def binding_imports(self, node: cst.Name) -> list[cst.CSTNode]:
        """The import statements that bind `node`'s name in its scope (migrate/python/names.py)."""
        return self._names.binding_imports(node) if self._names else []

    def byte_span(self, node: cst.CSTNode) -> tuple[int, int]:
        """[start, end) of `node` in the file's bytes (`self.data`)."""
        span = self.positions[node]
        start, end = self._file_offset(span.start), self._file_offset(span.start + span.length)
        if self._misplaced:
            return self._realigned(node, start, end)
        return start, end

    def separated(self, edit: Edit) -> Edit:
        """A replacement that ends (or starts) with a word character where the text it replaces did not, next to a
        word: a space between, as `getattr(torch.version, 'rocm', None)is None` becomes `torch.version.hip is
        None`, not `torch.version.hipis None`."""
        if edit.start == edit.end or not edit.text:
            return edit
        text = edit.text
        if _word(text[-1]) and not WORD.match(self.data, edit.end - 1) and WORD.match(self.data, edit.end):
            text += " "
        if _word(text[0]) and not WORD.match(self.data, edit.start) and edit.start \
                and WORD.match(self.data, edit.start - 1):
            text = " " + text
        return edit if text is edit.text else Edit(edit.start, edit.end, text)

    @cached_property
    def _misplaced(self) -> bool:
        """Whether libcst's byte positions may be off: they are those of the code libcst writes back, so wherever
        that is not the file byte for byte, everything after the difference lands early or late. Seen with libcst
        1.0 to 1.9: a line that is only a backslash (a continuation at column 0), an except clause continued onto a
        line that starts with its colon, a form feed (which Python reads as indentation whitespace), and a space
        before an except clause's colon (`except ImportError :`); each of these comes back changed."""
        name, bom = self._encoding
        code = self._text[1] if name in ("utf-8", "utf-8-sig") else self._text[0].encode(name, "surrogateescape")
        return code != self.data[bom:]

    def _realigned(self, node: cst.CSTNode, start: int, end: int) -> tuple[int, int]:
        """[start, end) moved to where the node's own text really is: its occurrence nearest libcst's position
        (which may be early or late: a bare continuation line is left out, or counted twice)."""
        text = self.wrapper.module.code_for_node(node).encode("utf-8")
        if self.data[start:end] == text:
            return start, end
        found = [at for at in (self.data.rfind(text, 0, start + len(text)), self.data.find(text, start)) if at >= 0]
        if not found:
            return start, end
        at = min(found, key=lambda at: abs(at - start))
        return at, at + len(text)

    @cached_property
    def _encoding(self) -> tuple[str, int]:
        """(codec name, bytes of byte-order mark before the text)."""
        name = codecs.lookup(self.wrapper.module.encoding).name
        return name, len(codecs.BOM_UTF8) if self.data.startswith(codecs.BOM_UTF8) else 0

    @cached_property
    def _text(self) -> tuple[str, bytes]:
        code = self.wrapper.module.code
        return code, code.encode("utf-8")

    def _file_offset(self, offset: int) -> int:
        # libcst counts the UTF-8 bytes of the decoded text: with a byte-order mark, or a coding cookie
        # naming another codec (latin-1, ...), those are not the file's own byte offsets.
        name, bom = self._encoding
        if name in ("utf-8", "utf-8-sig"):
            return bom + offset
        code, utf8 = self._text
        chars = len(utf8[:offset].decode("utf-8"))
        return bom + len(code[:chars].encode(name))

    def parse_errors(self) -> list[tuple[int, int]]:
        if "_parsed" not in self.__dict__ and _utf8(self.data) and _python_location(self.data) is None:
            # Python's own parser (in C, many times faster than libcst's) accepts it: libcst is left to the rules
            # that need the tree, and a file that no rule needs is never parsed by libcst. Not for bytes that are
            # not UTF-8: Python skips them in comments without decoding, libcst decodes the whole file first.
            return []
        exc = self._parsed[1]
        if exc is None:
            return []
        if isinstance(exc, cst.ParserSyntaxError):
            # libcst's parser may only notice lines later; Python's own parser names the first bad line
            return [_python_location(self.data) or (exc.raw_line, exc.raw_column + 1)]
        bad = _undecodable(self.data, exc)
        if bad is not None:
            return [(self.data.count(b"\n", 0, bad) + 1, 1)]
        return [(getattr(exc, "lineno", None) or 1, 1)]

    def unreached(self, start: int) -> bool:
        from migrate.python.guards import cuda_only

        return cuda_only(self, start)

    def parse_advice(self) -> str:
        exc = self._parsed[1] if self.parse_errors() else None
        if isinstance(exc, SyntaxError) and NESTING in str(exc.msg):
            return ("brackets are nested over 200 deep there, which Python cannot compile either; nest them less "
                    "deeply, or exclude the file with --exclude")
        bad = _undecodable(self.data, exc) if exc is not None else None
        if bad is None:
            return super().parse_advice()
        return (f"byte 0x{self.data[bad]:02x} is not {_declared(self.data)}, the file's encoding (Python only skips "
                "such bytes in comments); convert the file to UTF-8, or declare its encoding in a coding cookie "
                "(`# -*- coding: latin-1 -*-`), and run again")


def _word(char: str) -> bool:
    return char.isascii() and (char.isalnum() or char == "_")


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _declared(data: bytes) -> str:
    """The encoding a file declares (PEP 263), else UTF-8's name."""
    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        return "utf-8"


def _undecodable(data: bytes, exc: Exception) -> int | None:
    """The offset of the first byte the file's encoding cannot decode, when that is why parsing failed."""
    if isinstance(exc, UnicodeDecodeError):
        return exc.start
    if not isinstance(exc, SyntaxError) or getattr(exc, "lineno", None):
        return None
    try:
        data.decode(_declared(data))
    except UnicodeDecodeError as bad:
        return bad.start
    except LookupError:
        return None
    return None


NESTING = "too many nested parentheses"  # CPython's tokenizer: brackets nested over 200 deep


def _too_deep(data: bytes) -> SyntaxError | None:
    """Python's refusal of brackets nested over 200 deep, which it says at once and libcst's parser takes seconds a
    line to reach (a fuzzed file of 9 lines of 1,000 nested brackets: 10 s); None for other files."""
    if data.count(b"(") + data.count(b"[") + data.count(b"{") < 200:
        return None
    try:
        compile(data, "<file>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return exc if NESTING in str(exc.msg) else None
    except (ValueError, MemoryError, RecursionError):
        return None
    return None


def _python_location(data: bytes) -> tuple[int, int] | None:
    """(line, column) of the first syntax error Python's own parser finds, None if it finds none."""
    try:
        compile(data, "<file>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        return (exc.lineno or 1, exc.offset or 1)
    except ValueError:
        return None
    except (MemoryError, RecursionError):  # nesting deeper than CPython's parser takes: Python cannot run it either
        return (1, 1)
    return None
