/// The dependency graph as text a diagram tool draws: Graphviz DOT or Mermaid.
///
/// Nodes show type, name and lifetime (the lifetime also as colour and shape); edges point from
/// a service to what it needs, dashed when deferred through `Lazy`/`Provider`; services with a
/// problem are outlined in red.
///
/// ```swift
/// print(builder.exportGraph(as: .dot))      // dot -Tsvg graph.dot > graph.svg
/// print(container.exportGraph(as: .mermaid))
/// ```
public enum GraphFormat: String, Sendable, CaseIterable {
    /// Graphviz DOT.
    case dot
    /// Mermaid flowchart text.
    case mermaid
}

struct GraphRenderer {
    let graph: DependencyGraph
    let problems: [GraftError]
    /// A line more for some nodes' labels, by service as messages name it (a start-up
    /// report's figures).
    var notes: [String: String] = [:]

    func render(_ format: GraphFormat) -> String {
        switch format {
        case .dot: dot()
        case .mermaid: mermaid()
        }
    }

    /// Registrations named by a problem (its service or any step of its path).
    private var troubled: Set<String> {
        var names = Set<String>()
        for problem in problems {
            if let service = problem.service { names.insert(service) }
            names.formUnion(problem.path)
        }
        return names
    }

    private func label(_ node: Int) -> String {
        let key = graph.key(node)
        let name = key.name.map { "\\n\"\($0)\"" } ?? ""
        let lifetime: String
        switch graph.factoryNote(node) {
        case nil: lifetime = graph.lifetimeLabel(node)
        case "async": lifetime = "async \(graph.lifetimeLabel(node))"
        case let note? where note.hasPrefix("instance") || note.hasPrefix("alias"): lifetime = note
        case let note?: lifetime = "\(graph.lifetimeLabel(node)), \(note)"
        }
        let note = notes[key.description].map { "\\n\($0)" } ?? ""
        return "\(key.typeName)\(name)\\n\(lifetime)\(note)"
    }

    private static let colours: [Lifetime.Kind: String] = [
        .transient: "#e8f1fb", .singleton: "#fde9c9", .eagerSingleton: "#f9d38f",
        .scoped: "#dff3df", .graph: "#efe3f7", .weak: "#eeeeee",
    ]

    private static let shapes: [Lifetime.Kind: String] = [
        .transient: "box", .singleton: "box3d", .eagerSingleton: "box3d",
        .scoped: "component", .graph: "hexagon", .weak: "note",
    ]

    private func dot() -> String {
        let troubled = troubled
        var lines = ["digraph Graft {", "  rankdir=LR;", "  node [style=filled, fontname=\"Helvetica\"];"]
        for node in 0..<graph.count where graph.isShown(node) {
            let lifetime = graph.lifetime(node)
            var attributes = [
                "label=\"\(escaped(label(node)))\"",
                "shape=\(Self.shapes[lifetime] ?? "box")",
                "fillcolor=\"\(Self.colours[lifetime] ?? "#ffffff")\"",
            ]
            if troubled.contains(graph.key(node).description) {
                attributes += ["color=red", "penwidth=2"]
            }
            lines.append("  n\(node) [\(attributes.joined(separator: ", "))];")
        }
        for node in 0..<graph.count {
            for edge in graph.edges[node] {
                lines.append("  n\(node) -> n\(edge.target)\(edge.isImmediate ? "" : " [style=dashed]");")
            }
        }
        for missing in Set(graph.missing.map(\.dependency.description)).sorted() {
            lines.append(
                "  \"missing \(escaped(missing))\" [label=\"\(escaped(missing))\\nnot registered\", color=red, style=dashed];"
            )
        }
        for (dependent, dependency) in graph.missing {
            lines.append("  n\(dependent) -> \"missing \(escaped(dependency.description))\" [color=red];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func mermaid() -> String {
        let troubled = troubled
        var lines = ["flowchart LR"]
        for lifetime in Lifetime.Kind.allCases {
            lines.append("  classDef \(lifetime.rawValue) fill:\(Self.colours[lifetime] ?? "#ffffff")")
        }
        lines.append("  classDef problem stroke:#d00,stroke-width:3px")
        for node in 0..<graph.count where graph.isShown(node) {
            let text = label(node).replacing("\\n", with: "<br/>").replacing("\"", with: "'")
            lines.append("  n\(node)[\"\(text)\"]:::\(graph.lifetime(node).rawValue)")
            if troubled.contains(graph.key(node).description) {
                lines.append("  class n\(node) problem")
            }
        }
        for node in 0..<graph.count {
            for edge in graph.edges[node] {
                lines.append("  n\(node) \(edge.isImmediate ? "-->" : "-.->") n\(edge.target)")
            }
        }
        for (index, missing) in graph.missing.enumerated() {
            lines.append(
                "  m\(index)[\"\(missing.dependency.description.replacing("\"", with: "'"))<br/>not registered\"]:::problem"
            )
            lines.append("  n\(missing.dependent) --> m\(index)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func escaped(_ text: String) -> String {
        text.replacing("\"", with: "\\\"")
    }
}
