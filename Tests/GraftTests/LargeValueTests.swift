import Graft
import Testing

/// A value larger than the memory a resolve keeps for handing instances over (64 bytes).
private struct Telemetry: Sendable, Equatable {
    var samples: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    var label = "lap"

    static func == (lhs: Telemetry, rhs: Telemetry) -> Bool {
        lhs.label == rhs.label && lhs.samples.0 == rhs.samples.0 && lhs.samples.9 == rhs.samples.9
    }
}

/// A value aligned more strictly than that memory (16 bytes).
private struct Heading: Sendable {
    var vector: SIMD4<Float>
}

private final class Dashboard: Sendable {
    let telemetry: Telemetry
    let heading: Heading

    init(telemetry: Telemetry, heading: Heading) {
        self.telemetry = telemetry
        self.heading = heading
    }
}

/// Services of any size and alignment arrive intact, made directly or as dependencies.
@Suite struct LargeValueTests {
    private func container() throws -> Container {
        var builder = ContainerBuilder()
        builder.register(Telemetry.self) { _ in Telemetry(label: "monza") }
        builder.register(Heading.self, lifetime: .singleton) { _ in Heading(vector: SIMD4(1, 2, 3, 4)) }
        builder.register(Dashboard.self, using: Dashboard.init(telemetry:heading:))
        return try builder.build()
    }

    @Test func aValueLargerThanTheHandOverMemoryArrivesIntact() throws {
        let telemetry = try container().resolve(Telemetry.self)

        #expect(telemetry.label == "monza")
        #expect(telemetry.samples.0 == 1 && telemetry.samples.9 == 10)
    }

    @Test func largeAndStrictlyAlignedDependenciesReachAnInitializerIntact() throws {
        let dashboard = try container().resolve(Dashboard.self)

        #expect(dashboard.telemetry == Telemetry(label: "monza"))
        #expect(dashboard.heading.vector == SIMD4(1, 2, 3, 4))
    }

    @Test func largeValuesArriveIntactThroughTheAsyncPath() async throws {
        let dashboard = try await container().resolve(Dashboard.self)

        #expect(dashboard.telemetry.samples.5 == 6)
        #expect(dashboard.heading.vector.w == 4)
    }
}
