import Foundation
import Testing

/// Keeps the article's code honest: every line of a `swift` code block in an article listed
/// here must appear in the snippet file that compiles and runs it.
@Suite struct ArticleSnippetTests {
    /// Article (in `Sources/GraftConfiguration/Docs.docc/Articles/`) and the file of this folder
    /// that holds its code.
    static let articles: [(article: String, snippets: String)] = [
        ("SettingsFromConfiguration.md", "SettingsFromConfigurationSnippets.swift")
    ]

    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GraftConfigurationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The trimmed, non-empty lines of the article's `swift` code blocks.
    static func codeLines(of markdown: String) -> [String] {
        var lines: [String] = []
        var inSwiftBlock = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inSwiftBlock = !inSwiftBlock && trimmed == "```swift"
                continue
            }
            if inSwiftBlock, !trimmed.isEmpty { lines.append(trimmed) }
        }
        return lines
    }

    @Test(arguments: articles.map(\.article))
    func everyCodeLineOfTheArticleIsCompiledBySnippets(article: String) throws {
        let snippetsFile = try #require(Self.articles.first { $0.article == article }?.snippets)
        let markdown = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Sources/GraftConfiguration/Docs.docc/Articles/\(article)"
            ),
            encoding: .utf8
        )
        let snippets = try String(
            contentsOf: Self.root.appendingPathComponent("Tests/GraftConfigurationTests/\(snippetsFile)"),
            encoding: .utf8
        )
        let code = Self.codeLines(of: markdown)
        #expect(!code.isEmpty, "\(article) has no swift code block")
        for line in code {
            #expect(snippets.contains(line), "\(article): “\(line)” is not in \(snippetsFile)")
        }
    }
}
