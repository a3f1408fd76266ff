import Foundation
import Graft
import Testing

// The code of the article "Modules and requirements" (ModulesAndRequirements.md), compiled and run.
// `.ci/articles` compiles the article's blocks as they are; these run them.

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

    /// The article quotes the message of a forgotten requirement; this is it, word for word.
    @Test func anUnmetRequirementNamesTheModule() throws {
        let article = try DocumentedCodeTests.document(DocumentedCodeTests.articles + "ModulesAndRequirements.md")
        let quoted = try #require(DocumentedCodeTests.plainBlocks(of: article).first)
        var forgetful = ContainerBuilder()
        forgetful.install(PitCrewModule())

        #expect(forgetful.validate().map(\.code) == [.unmetRequirement])
        let error = #expect(throws: GraftError.self) { try forgetful.build() }
        // The article's module lives in a file of its own, `PitCrew/PitCrewModule.swift`; this one
        // lives here. ValidationTests checks the place a message names.
        let message = error.map { "\($0)" }?.replacingOccurrences(
            of: #"GraftDocSnippetsTests/ModulesSnippets\.swift:\d+"#,
            with: "PitCrew/PitCrewModule.swift:9",
            options: .regularExpression
        )
        #expect(message == quoted)
    }
}
