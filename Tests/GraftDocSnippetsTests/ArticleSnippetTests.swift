import Foundation
import Testing

/// Keeps the articles' code honest: every line of a `swift` code block in an article listed
/// here must appear in the snippet file that compiles and runs it.
@Suite struct ArticleSnippetTests {
    /// Article (in `Sources/Graft/Docs.docc/Articles/`) and the file of this folder that holds
    /// its code.
    static let articles: [(article: String, snippets: String)] = [
        ("GettingStarted.md", "GettingStartedSnippets.swift"),
        ("Lifetimes.md", "LifetimesSnippets.swift"),
        ("ModulesAndRequirements.md", "ModulesSnippets.swift"),
        ("InjectionForms.md", "InjectionFormsSnippets.swift"),
        ("KeyValueConfiguration.md", "KeyValueSnippets.swift"),
        ("Autowiring.md", "AutowiringSnippets.swift"),
        ("Concurrency.md", "ConcurrencySnippets.swift"),
        ("ScopesOnTheServer.md", "ScopesOnTheServerSnippets.swift"),
        ("Testing.md", "TestingSnippets.swift"),
    ]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GraftDocSnippetsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func article(_ name: String) throws -> String {
        try String(
            contentsOf: root.appendingPathComponent("Sources/Graft/Docs.docc/Articles/\(name)"),
            encoding: .utf8
        )
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

    /// The non-empty lines of the article's `swift` code blocks, spaces normalized.
    static func codeLines(of markdown: String) -> [String] {
        blocks(of: markdown, language: "swift").flatMap { block in
            block.map(normalizingSpaces).filter { !$0.isEmpty }
        }
    }

    /// `line` with its runs of spaces made one, and none at the ends: an article may align its
    /// comments, which swift-format does not allow in the snippets.
    static func normalizingSpaces(_ line: Substring) -> String {
        line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The article's code blocks with a plain fence (quoted output), each joined back into text.
    static func plainBlocks(of markdown: String) -> [String] {
        blocks(of: markdown, language: "").map { $0.joined(separator: "\n") }
    }

    @Test(arguments: articles.map(\.article))
    func everyCodeLineOfTheArticleIsCompiledBySnippets(article: String) throws {
        let snippetsFile = try #require(Self.articles.first { $0.article == article }?.snippets)
        let markdown = try Self.article(article)
        let snippets = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/GraftDocSnippetsTests/\(snippetsFile)"),
            encoding: .utf8
        )
        .split(separator: "\n").map(Self.normalizingSpaces).joined(separator: "\n")
        let code = Self.codeLines(of: markdown)
        #expect(!code.isEmpty, "\(article) has no swift code block")
        for line in code {
            let compiled = snippets.contains(line)
            #expect(compiled, "\(article): “\(line)” is not in \(snippetsFile)")
        }
    }
}
