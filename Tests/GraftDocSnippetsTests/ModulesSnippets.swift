import Graft
import Testing

// The code of the article "Modules and requirements" (ModulesAndRequirements.md), compiled and run. DocumentedCodeTests
// checks that every line of the article's code blocks appears here.

struct RadioFrequency: Sendable {
    let megahertz: Int
}

final class PitRadio: Sendable {
    let frequency: RadioFrequency
    init(frequency: RadioFrequency) { self.frequency = frequency }
}

struct PitCrewModule: Module {
    var requirements: [Requirement] { [Requirement(RadioFrequency.self)] }

    func register(in builder: inout ContainerBuilder) {
        builder.register(PitRadio.self, lifetime: .singleton, using: PitRadio.init(frequency:))
    }
}

@Suite struct ModulesSnippets {
    @Test func theAppProvidesWhatTheModuleRequires() throws {
        var builder = ContainerBuilder()
        builder.install(PitCrewModule())
        builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))
        let container = try builder.build()
        #expect(try container.resolve(PitRadio.self).frequency.megahertz == 433)
    }

    @Test func anUnmetRequirementNamesTheModule() {
        var forgetful = ContainerBuilder()
        forgetful.install(PitCrewModule())
        let problems = forgetful.validate()
        // "PitCrewModule requires RadioFrequency, which nothing registers"
        #expect(problems.map(\.code).contains(.unmetRequirement))
        #expect(
            problems.contains { "\($0)".contains("PitCrewModule requires RadioFrequency, which nothing registers") }
        )
    }
}
