import Graft
import Testing

private final class Gearbox: Sendable {}
private final class Chassis: Sendable {
    init(gearbox: Gearbox, spare: Lazy<Gearbox>) {}
}
private final class Pit: Sendable {
    init(chassis: Chassis) {}
}

@Suite struct GraphExportTests {
    private func builder() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register(Gearbox.self, lifetime: .singleton, using: Gearbox.init)
        builder.register(Chassis.self, using: Chassis.init(gearbox:spare:))
        return builder
    }

    @Test func dotShowsNodesLifetimesAndDashedDeferredEdges() throws {
        let dot = try builder().build().exportGraph(as: .dot)
        #expect(dot.hasPrefix("digraph Graft {"))
        #expect(dot.contains(#"n0 [label="Gearbox\n.singleton", shape=box3d"#))
        #expect(dot.contains(#"n1 [label="Chassis\n.transient", shape=box"#))
        #expect(dot.contains("n1 -> n0;"))
        #expect(dot.contains("n1 -> n0 [style=dashed];"))
    }

    @Test func mermaidShowsTheSameGraph() throws {
        let mermaid = try builder().build().exportGraph(as: .mermaid)
        #expect(mermaid.hasPrefix("flowchart LR"))
        #expect(mermaid.contains(#"n0["Gearbox<br/>.singleton"]:::singleton"#))
        #expect(mermaid.contains("n1 --> n0"))
        #expect(mermaid.contains("n1 -.-> n0"))
    }

    @Test(arguments: GraphFormat.allCases)
    func problemsAreHighlighted(_ format: GraphFormat) {
        var broken = builder()
        broken.register(Pit.self, lifetime: .singleton, using: Pit.init(chassis:))
        broken.register(Chassis.self, lifetime: .scoped, using: Chassis.init(gearbox:spare:))
        let text = broken.exportGraph(as: format)
        switch format {
        case .dot: #expect(text.contains("color=red, penwidth=2"))
        case .mermaid: #expect(text.contains("class n2 problem"))
        }
    }

    @Test func missingServicesAppearAsRedNodes() {
        var builder = ContainerBuilder()
        builder.register(Pit.self, using: Pit.init(chassis:))
        let dot = builder.exportGraph(as: .dot)
        #expect(dot.contains(#""missing Chassis" [label="Chassis\nnot registered", color=red, style=dashed];"#))
        #expect(dot.contains(#"n0 -> "missing Chassis" [color=red];"#))
    }
}
