import Foundation
import Testing

/// Keeps the documents' code honest: every line of a `swift` code block in a document listed
/// here must appear in one of the files that compile (and mostly run) it.
///
/// A line `// …` stands for code the document leaves out, and is not looked for. The files of
/// the integration packages and examples are compiled and run by their own packages' builds and
/// tests (`.ci/run` runs them all); this test only keeps the documents in step with them, in one
/// place for the whole repository.
@Suite struct DocumentedCodeTests {
    static let articles = "Sources/Graft/Docs.docc/Articles/"
    static let snippets = "Tests/GraftDocSnippetsTests/"

    /// Each document (a path from the repository's root) and the files that hold its code.
    static let documents: [(document: String, code: [String])] =
        [
            (articles + "GettingStarted.md", [snippets + "GettingStartedSnippets.swift"]),
            (articles + "Lifetimes.md", [snippets + "LifetimesSnippets.swift"]),
            (articles + "ModulesAndRequirements.md", [snippets + "ModulesSnippets.swift"]),
            (articles + "InjectionForms.md", [snippets + "InjectionFormsSnippets.swift"]),
            (articles + "KeyValueConfiguration.md", [snippets + "KeyValueSnippets.swift"]),
            (articles + "Autowiring.md", [snippets + "AutowiringSnippets.swift"]),
            (articles + "Concurrency.md", [snippets + "ConcurrencySnippets.swift"]),
            (articles + "ScopesOnTheServer.md", [snippets + "ScopesOnTheServerSnippets.swift"]),
            (articles + "Testing.md", [snippets + "TestingSnippets.swift"]),
            (
                articles + "SeedsTour.md",
                [snippets + "SeedsTourSnippets.swift", "Examples/ConcreteProtocols/Greeter.swift"]
            ),
            ("Sources/Graft/Docs.docc/index.md", [snippets + "LandingPageSnippets.swift"]),
            ("Sources/GraftTesting/GraftTesting.docc/GraftTesting.md", [snippets + "TestingSnippets.swift"]),
            (
                "README.md",
                [
                    snippets + "ReadmeSnippets.swift",
                    "Integrations/GraftConfiguration/Examples/RaceCarSettings/main.swift",
                    "Examples/TodoServer/Sources/TodoServer/TodoServer.swift",
                    "Examples/TodoServer/Sources/TodoServer/Routes.swift",
                    "Integrations/GraftVapor/Tests/GraftVaporTests/RequestScopesInVaporSnippets.swift",
                ]
            ),
        ]
        + integration("GraftConfiguration", article: "SettingsFromConfiguration")
        + integration("GraftHummingbird", article: "RequestScopes")
        + integration("GraftServiceLifecycle", article: "GracefulShutdown")
        + integration("GraftVapor", article: "RequestScopesInVapor")

    /// An integration package's article and landing page, whose code its tests hold in
    /// `<article>Snippets.swift`.
    static func integration(_ package: String, article: String) -> [(document: String, code: [String])] {
        let catalog = "Integrations/\(package)/Sources/\(package)/Docs.docc/"
        let code = ["Integrations/\(package)/Tests/\(package)Tests/\(article)Snippets.swift"]
        return [(catalog + "Articles/\(article).md", code), (catalog + "index.md", code)]
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GraftDocSnippetsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The text of the file at `path`, from the repository's root.
    static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The code blocks of `markdown` whose fence is followed by `language` (`""` for a plain
    /// fence), each as its lines.
    static func blocks(of markdown: String, language: String) -> [[Substring]] {
        var blocks: [[Substring]] = []
        var insideBlock = false
        var current: [Substring]?  // the lines so far, when the open block is in `language`
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                current?.append(line)
                continue
            }
            if insideBlock, let finished = current { blocks.append(finished) }
            current = !insideBlock && trimmed.dropFirst(3) == language ? [] : nil
            insideBlock.toggle()
        }
        return blocks
    }

    /// The lines of the document's `swift` code blocks to look for, spaces normalized.
    static func codeLines(of markdown: String) -> [String] {
        blocks(of: markdown, language: "swift").flatMap { block in
            block.map(normalizingSpaces).filter { !$0.isEmpty && !$0.hasPrefix("// …") }
        }
    }

    /// `line` with its runs of spaces made one, and none at the ends: a document may align its
    /// comments, which swift-format does not allow in code.
    static func normalizingSpaces(_ line: Substring) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The document's code blocks with a plain fence (quoted output), each joined back into text.
    static func plainBlocks(of markdown: String) -> [String] {
        blocks(of: markdown, language: "").map { $0.joined(separator: "\n") }
    }

    @Test(arguments: documents.map(\.document))
    func everyCodeLineOfTheDocumentIsInCodeThatCompiles(document: String) throws {
        let files = try #require(Self.documents.first { $0.document == document }?.code)
        let code = try files.map { file in
            try Self.document(file).split(separator: "\n").map(Self.normalizingSpaces).joined(separator: "\n")
        }
        .joined(separator: "\n")
        let lines = Self.codeLines(of: try Self.document(document))
        #expect(!lines.isEmpty, "\(document) has no swift code block")
        for line in lines {
            let compiled = code.contains(line)
            #expect(compiled, "\(document): “\(line)” is in none of \(files.joined(separator: ", "))")
        }
    }
}
