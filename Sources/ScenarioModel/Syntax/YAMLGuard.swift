// CYaml is libyaml as Yams builds it: Yams's own dependency, imported here to read the event stream
// that Yams's composer reads, before composing (Yams has no public event API).
import CYaml

/// Refuses YAML that would cost far more to compose and decode than its size suggests, before Yams
/// composes it: alias bombs (an anchor whose aliases hold aliases, growing at every level, including as
/// mapping keys, which Yams hashes whole), more alias uses than `Limits.aliases`, and scalars longer
/// than `Limits.scalarBytes`.
///
/// It reads libyaml's events once, keeping each anchor's expanded size, so it is linear in the file
/// however far the aliases would expand. Syntax errors are left to Yams, which reports them better.
enum YAMLGuard {
    /// A node the limits refuse, with the reason.
    struct Refusal: Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    /// The first refusal in `text`, if any.
    static func check(_ text: String) -> Refusal? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer -> Refusal? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var sizes: [String: Int] = [:]
            /// Open collections: their anchors and their sizes so far (the collection itself counts 1).
            var open: [(anchor: String?, size: Int)] = []
            var total = 0
            var aliases = 0
            func add(_ size: Int) {
                if open.isEmpty {
                    total = saturating(total, size)
                } else {
                    open[open.count - 1].size = saturating(open[open.count - 1].size, size)
                }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1, column = Int(event.start_mark.column) + 1
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    let length = Int(event.data.scalar.length)
                    if length > Limits.scalarBytes {
                        return Refusal(line: line, column: column,
                            message: "this value is \(length) bytes long, more than the \(Limits.scalarBytes) a scenario value may have; shorten it.")
                    }
                    if let anchor = string(event.data.scalar.anchor) { sizes[anchor] = 1 }
                    add(1)
                case YAML_ALIAS_EVENT:
                    aliases += 1
                    if aliases > Limits.aliases {
                        return Refusal(line: line, column: column,
                            message: "the file uses YAML aliases more than \(Limits.aliases) times (this is one too many); write the values out instead.")
                    }
                    add(string(event.data.alias.anchor).flatMap { sizes[$0] } ?? 1)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((string(event.data.sequence_start.anchor), 1))
                case YAML_MAPPING_START_EVENT:
                    open.append((string(event.data.mapping_start.anchor), 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { break }
                    if let anchor = closed.anchor { sizes[anchor] = closed.size }
                    add(closed.size)
                default:
                    break
                }
                if total > Limits.expandedNodes || open.contains(where: { $0.size > Limits.expandedNodes }) {
                    return Refusal(line: line, column: column, message: aliases > 0
                        ? "YAML aliases expand the file to more than \(Limits.expandedNodes) nodes here; write the values out instead of aliasing them."
                        : "the file has more than \(Limits.expandedNodes) YAML nodes (keys, values and collections) here, the most a scenario may have; split it.")
                }
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func saturating(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
