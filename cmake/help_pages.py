#!/usr/bin/env python3
"""A program's man page and bash completion, both read from its own --help (and each subcommand's),
whose options come from the one options schema (core/options/option_schema.hpp) and the parsers that
declare the rest. Nothing is written by hand, so the pages and completions never drift from the program.

    help_pages.py PROGRAM_PATH NAME VERSION MAN_OUT COMPLETION_OUT [SUMMARY]
"""
import os
import re
import subprocess
import sys

EXIT_STATUS = [("0", "success"), ("2", "usage: a bad option or value"),
               ("3", "bad input (the message names file, line and field), or an output path that cannot be written"),
               ("4", "out of resources: host or GPU memory, a full disk, or no GPU"),
               ("5", "simjoin bench: exact engines disagreed on a pair count"),
               ("130", "cancelled by SIGINT, SIGTERM or SIGHUP; no partial output is left")]


def help_text(program, *words):
    done = subprocess.run([program, *words, "--help"], capture_output=True, text=True, timeout=60,
                          env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"})
    return done.stdout


def parse(text):
    """{'description': [...], 'usage': str, 'sections': {title: [(term, description)]}} of a CLI11 or
    QCommandLineParser help text: entries at two spaces' indent, wrapped descriptions indented deeper."""
    page = {"description": [], "usage": "", "sections": {}}
    entries = None
    for line in text.splitlines():
        if line.startswith("Usage:"):
            words = line[len("Usage:"):].split()
            page["usage"] = " ".join([os.path.basename(words[0])] + words[1:]) if words else ""
        elif re.match(r"^[A-Z][A-Za-z ]*:$", line):
            entries = page["sections"].setdefault(line[:-1], [])
        elif entries is None and line.strip():
            page["description"].append(line.strip())
        elif re.match(r"^ {1,3}\S", line) and entries is not None:
            term, _, description = line.strip().partition("  ")
            entries.append([term.strip(), description.strip()])
        elif line.strip() and entries:
            entries[-1][1] = (entries[-1][1] + " " + line.strip()).strip()
    return page


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text)


def option_names(term):
    """The --long and -s names of an entry ("-h,--help", "--eps <E>", "--eps E:FLOAT REQUIRED")."""
    return [name for name in re.split(r"[,\s]+", term) if re.match(r"^--?[A-Za-z]", name)]


def options_section(lines, title, entries):
    lines.append(f'.SS "{roff(title)}"' if title else ".SH OPTIONS")
    for term, description in entries:
        lines += [".TP", f"\\fB{roff(term)}\\fR", roff(description) or "\\&"]


def man_page(name, version, summary, top, subcommands):
    lines = [f'.TH {name.upper()} 1 "" "{name} {version}" "User Commands"', ".SH NAME",
             f"{roff(name)} \\- {roff(summary)}", ".SH SYNOPSIS", f".B {roff(name)}",
             roff(top["usage"].split(" ", 1)[1] if " " in top["usage"] else ""), ".SH DESCRIPTION"]
    lines += [roff(re.sub(r"^\S+: ", "", line)) for line in top["description"]] or [roff(summary)]
    for title, entries in top["sections"].items():
        if title in ("Subcommands", "Positionals", "Arguments"):
            lines += [f".SH {title.upper()}"]
            for term, description in entries:
                lines += [".TP", f"\\fB{roff(term)}\\fR", roff(description) or "\\&"]
        else:
            options_section(lines, None, entries)
    for sub, page in subcommands.items():
        lines += [f'.SH "{roff(name)} {roff(sub).upper()}"', ".nf", roff(page["usage"]), ".fi"]
        lines += [roff(line) for line in page["description"]]
        for title, entries in page["sections"].items():
            options_section(lines, title, entries)
    lines.append(".SH EXIT STATUS")
    for code, meaning in EXIT_STATUS:
        lines += [".TP", f"\\fB{code}\\fR", roff(meaning)]
    lines += [".SH SEE ALSO", ".BR simjoin (1),", ".BR simjoin\\-studio (1),", ".BR simjoin\\-sweep (1)",
              ".PP", "The README and docs/ of Simjoin Studio, installed under /usr/share/doc/simjoin."]
    return "\n".join(lines) + "\n"


def completion(name, top, subcommands):
    """A bash completion: the subcommands first, then the options of the subcommand typed (or of the
    program), files elsewhere."""
    function = "_" + re.sub(r"\W", "_", name)
    flags = lambda page: sorted({n for entries in page["sections"].values() for t, _ in entries
                                 for n in option_names(t)})
    cases = "".join(f'    {sub}) options="{" ".join(flags(page))}" ;;\n' for sub, page in subcommands.items())
    return f"""# bash completion for {name}, generated from its --help
{function}() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} command="" word options
  for word in "${{COMP_WORDS[@]:1:COMP_CWORD-1}}"; do
    case " {" ".join(subcommands)} " in *" $word "*) command=$word; break ;; esac
  done
  case $command in
{cases}    *) options="{" ".join(flags(top))}" ;;
  esac
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
  elif [[ -z $command && -n "{" ".join(subcommands)}" ]]; then
    mapfile -t COMPREPLY < <(compgen -W "{" ".join(subcommands)}" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null
  fi
}}
complete -F {function} {name}
"""


def main(program, name, version, man_out, completion_out, summary=None):
    top = parse(help_text(program))
    if not top["sections"]:
        sys.exit(f"help_pages.py: {program} --help printed no options")
    subcommands = {term.split()[0]: parse(help_text(program, term.split()[0]))
                   for term, _ in top["sections"].get("Subcommands", [])}
    summary = summary or (top["description"][0] if top["description"] else name)
    summary = re.sub(r"^\S+: ", "", summary)
    with open(man_out, "w") as file:
        file.write(man_page(name, version, summary, top, subcommands))
    with open(completion_out, "w") as file:
        file.write(completion(name, top, subcommands))


if __name__ == "__main__":
    main(*sys.argv[1:])
