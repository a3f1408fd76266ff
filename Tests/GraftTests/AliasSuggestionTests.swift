import Graft
import Testing

private protocol Mailer: Sendable {}

private final class SMTPMailer: Mailer {}

private final class Newsletter: Sendable {
    init(mailer: any Mailer) {}
}

/// A protocol nobody registers while a concrete type named after it is: the message says what is
/// registered and how to alias it, as a guess by name (Swift cannot check the conformance).
@Suite struct AliasSuggestionTests {
    @Test func missingProtocolDependencyNamesTheRegisteredConcreteTypeAndTheAlias() {
        var builder = ContainerBuilder()
        builder.register(SMTPMailer.self) { _ in SMTPMailer() }
        builder.register(Newsletter.self, using: Newsletter.init(mailer:))
        let problems = builder.validate()
        #expect(problems.map(\.code) == [.missingDependency])
        #expect(
            problems.first?.hints.first
                == "registered: SMTPMailer; if Mailer is a protocol SMTPMailer conforms to, alias it: "
                + "builder.alias((any Mailer).self, to: SMTPMailer.self)"
        )
    }

    @Test func unregisteredProtocolNamesTheRegisteredConcreteTypeAndTheAlias() throws {
        var builder = ContainerBuilder()
        builder.register(SMTPMailer.self) { _ in SMTPMailer() }
        let container = try builder.build()
        let error = #expect(throws: GraftError.self) { try container.resolve((any Mailer).self) }
        #expect(
            error?.description
                == """
                Graft: no registration for Mailer
                  registered: SMTPMailer; if Mailer is a protocol SMTPMailer conforms to, alias it: builder.alias((any Mailer).self, to: SMTPMailer.self)
                  register it, made by a type that conforms to Mailer: builder.register((any Mailer).self, using: <ConformingType>.init)
                """
        )
        // The alias the hint gives works.
        builder.alias((any Mailer).self, to: SMTPMailer.self)
        #expect(try builder.build().resolve((any Mailer).self) is SMTPMailer)
    }
}
