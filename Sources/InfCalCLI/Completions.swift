import Foundation
import InfCalModel
import InfCalEvents
import InfCalRender
import InfCalPager

/// The completion scripts `--completions bash|zsh|fish` prints, made from the option table that
/// drives the parser and `--help`, so that they complete exactly the options infcal takes.
public enum Completions {
    /// The words an option's value may be, where they are a known few.
    static func values(for key: OptionKey) -> [String] {
        switch key {
        case .calendar: return CalendarChoice.usableNames + ["list"]
        case .also: return CalendarChoice.usableNames
        case .locale: return ["C", "POSIX"] + Locale.availableIdentifiers.filter { !$0.contains("@") }.sorted()
        case .weekNumbers: return ["iso", "locale"]
        case .firstWeekday: return ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        case .color: return ["auto", "always", "never"]
        case .reform: return ["1582", "1752", "gregorian", "julian"]
        case .columns: return ["auto", "1", "2", "3"]
        case .completions: return OptionSpec.shells
        case .from, .since, .until, .week: return ["today"]
        case .view: return PagerState.View.allCases.map(\.name)
        case .zone: return ["local"] + ZoneChoice.knownNames
        case .every: return ["day", "week", "month", "year"]
        case .ending, .occurrence: return ["today", "tomorrow"]
        default: return []
        }
    }

    /// The placeholders of options whose value is a file: they complete file names.
    static func isPath(_ placeholder: String) -> Bool { placeholder == "PATH" || placeholder == "CALENDAR" }

    /// The script for `shell` (one of `OptionSpec.shells`), ending in a newline.
    public static func script(for shell: String) -> String {
        switch shell {
        case "zsh": return zsh()
        case "fish": return fish()
        default: return bash()
        }
    }

    /// Every spelling of every option of `specs`: `--from`, `-y`, `--year`, ...
    static func spellings(_ specs: [OptionSpec]) -> [String] {
        specs.flatMap { spec in [spec.short.map { "-\($0)" }, spec.flag].compactMap { $0 } }
    }

    static var allSpellings: [String] { spellings(OptionSpec.all) }

    /// The subcommands' names, as the first word completes them.
    static var commandNames: [String] { Subcommand.all.map(\.name.rawValue) }

    // MARK: bash

    static func bash() -> String {
        var cases: [String] = []
        var takesValue: [String] = []
        var takesPath: [String] = []
        var seen = Set<String>()
        for spec in OptionSpec.all + OptionSpec.commandOptions where seen.insert(spec.long).inserted {
            let names = [spec.short.map { "-\($0)" }, spec.flag].compactMap { $0 }
            let words = values(for: spec.key)
            if !words.isEmpty {
                cases.append("        \(names.joined(separator: "|"))) values=\(shellQuoted(words.joined(separator: " "))) ;;")
            }
            if case .required(let placeholder) = spec.value {
                if isPath(placeholder) { takesPath += names } else { takesValue += names }
            }
        }
        return """
        # bash completion for infcal. Load it with: source <(infcal --completions bash)
        # or save it as ~/.local/share/bash-completion/completions/infcal
        _infcal() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="" values=""
            (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
            # bash splits --color=always at the "=": complete the value after it.
            if [[ $cur == "=" ]]; then
                cur=""
            elif [[ $prev == "=" ]] && (( COMP_CWORD > 1 )); then
                prev="${COMP_WORDS[COMP_CWORD-2]}"
            fi
            case "$prev" in
        \(cases.joined(separator: "\n"))
            esac
            if [[ -n $values && $cur != -* ]]; then
                COMPREPLY=( $(compgen -W "$values" -- "$cur") )
                return 0
            fi
            # A path: bash's own file names, quoted as file names, a directory with its "/".
            case "$prev" in
                \(takesPath.isEmpty ? "--" : takesPath.joined(separator: "|"))) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- "$cur") ); return 0 ;;
                \(takesValue.joined(separator: "|"))) COMPREPLY=(); return 0 ;;
            esac
            local options=\(shellQuoted(allSpellings.joined(separator: " ")))
            case "${COMP_WORDS[1]}" in
        \(Subcommand.all.map { "        \($0.name.rawValue)) options=\(shellQuoted(spellings($0.specs).joined(separator: " "))) ;;" }.joined(separator: "\n"))
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=( $(compgen -W "$options" -- "$cur") )
            elif (( COMP_CWORD == 1 )); then
                COMPREPLY=( $(compgen -W \(shellQuoted(commandNames.joined(separator: " "))) -- "$cur") )
            fi
            return 0
        }
        complete -F _infcal infcal

        """
    }

    // MARK: zsh

    static func zsh() -> String {
        let commands = Subcommand.all.map { command in
            "        \(command.name.rawValue)) _arguments -s -S \\\n" + zshSpecs(command.specs).map { "            " + $0 + " \\" }.joined(separator: "\n")
                + "\n            '*::operand:'\n            return ;;"
        }.joined(separator: "\n")
        return """
        #compdef infcal
        # zsh completion for infcal. Save it as _infcal in a directory of $fpath, e.g.
        #   infcal --completions zsh > ~/.zfunc/_infcal   (with fpath+=(~/.zfunc) before compinit)
        if (( CURRENT > 2 )); then
            case ${words[2]} in
        \(commands)
            esac
        fi
        _arguments -s -S \\
        \(zshSpecs(OptionSpec.all).map { "    " + $0 + " \\" }.joined(separator: "\n"))
            '1::date or command:(\(commandNames.joined(separator: " ")))' \\
            '*::date:'

        """
    }

    /// The `_arguments` specs of `options`.
    static func zshSpecs(_ options: [OptionSpec]) -> [String] {
        var specs: [String] = []
        for spec in options {
            let summary = zshEscaped(spec.summary)
            let words = values(for: spec.key)
            var action = words.isEmpty ? "" : "(" + words.map(zshEscaped).joined(separator: " ") + ")"
            if case .required(let placeholder) = spec.value, isPath(placeholder) { action = "_files" }
            let exclusive = spec.short.map { "(-\($0) \(spec.flag))" } ?? ""
            switch spec.value {
            case .none:
                if let short = spec.short { specs.append("'\(exclusive)'{-\(short),\(spec.flag)}'[\(summary)]'") }
                else { specs.append("'\(spec.flag)[\(summary)]'") }
            case .required(let placeholder):
                if let short = spec.short { specs.append("'\(exclusive)-\(short)+[\(summary)]:\(placeholder):\(action)'") }
                specs.append("'\(exclusive)\(spec.flag)=[\(summary)]:\(placeholder):\(action)'")
            case .optional(let placeholder, _):
                if let short = spec.short { specs.append("'\(exclusive)-\(short)-[\(summary)]::\(placeholder):\(action)'") }
                specs.append("'\(exclusive)\(spec.flag)=-[\(summary)]::\(placeholder):\(action)'")
            }
        }
        return specs
    }

    static func zshEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "[", "]", "\\": escaped += "\\" + String(character)
            case "'": escaped += "'\\''"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // MARK: fish

    static func fish() -> String {
        var lines = ["# fish completion for infcal. Save it as ~/.config/fish/completions/infcal.fish",
                     "complete -c infcal -f",
                     "complete -c infcal -n __fish_use_subcommand -a " + fishQuoted(commandNames.joined(separator: " "))]
        let groups = [(nil as Subcommand?, OptionSpec.all)] + Subcommand.all.map { ($0, $0.specs) }
        for (command, specs) in groups {
            for spec in specs {
                var line = "complete -c infcal"
                if let command { line += " -n " + fishQuoted("__fish_seen_subcommand_from " + command.name.rawValue) }
                line += fishLine(spec)
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The part of a fish `complete` line that describes `spec`.
    static func fishLine(_ spec: OptionSpec) -> String {
        var line = ""
            if let short = spec.short { line += " -s \(fishQuoted(String(short)))" }
            line += " -l \(spec.long)"
            let words = values(for: spec.key)
            if case .required(let placeholder) = spec.value {
                line += isPath(placeholder) ? " -r -F" : words.isEmpty ? " -r" : " -x"
            }
            if !words.isEmpty { line += " -a " + fishQuoted(words.joined(separator: " ")) }
            line += " -d " + fishQuoted(spec.summary)
            return line
    }

    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// `text` in single quotes for bash.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
