import Graft
import Testing

private final class Gearbox: Sendable, Injectable {
    init() {}

    static func register(in builder: inout ContainerBuilder) {
        builder.register(Gearbox.self, lifetime: .singleton, using: Gearbox.init)
    }
}

private final class Chassis: Sendable, Injectable {
    let gearbox: Gearbox

    init(gearbox: Gearbox) {
        self.gearbox = gearbox
    }

    static func register(in builder: inout ContainerBuilder) {
        builder.register(Chassis.self, using: Chassis.init(gearbox:))
    }
}

@Suite struct InjectableTests {
    @Test func registersEachTypeListedInOrder() throws {
        var builder = ContainerBuilder()
        builder.register(Chassis.self, Gearbox.self)
        #expect(builder.count == 2)
        let container = try builder.build()
        let first = try container.resolve(Chassis.self)
        let second = try container.resolve(Chassis.self)
        #expect(first !== second)
        #expect(first.gearbox === second.gearbox)
    }

    @Test func registersOneTypeLikeItsOwnRegistration() throws {
        var listed = ContainerBuilder()
        listed.register(Gearbox.self)
        var direct = ContainerBuilder()
        Gearbox.register(in: &direct)
        #expect(listed.count == 1)
        #expect(direct.count == 1)
        let container = try listed.build()
        #expect(try container.resolve(Gearbox.self) === container.resolve(Gearbox.self))
    }

    @Test func buildReportsWhatAListedTypeNeeds() {
        var builder = ContainerBuilder()
        builder.register(Chassis.self)
        let error = #expect(throws: GraftError.self) { try builder.build() }
        #expect(error?.description.contains("Gearbox") == true)
    }
}
