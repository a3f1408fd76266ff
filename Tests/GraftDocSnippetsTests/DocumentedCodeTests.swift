import Foundation
import Testing

/// Keeps the seeds' tour honest: every line of its `swift` code blocks must appear in one of the
/// files that compile (and mostly run) it. The tour quotes fragments of the examples on purpose;
/// every other document's blocks are whole files, compiled as they are by `.ci/articles`.
///
/// A line `// …` stands for code the document leaves out, and is not looked for.
@Suite struct DocumentedCodeTests {
    static let articles = "Sources/Graft/Docs.docc/Articles/"
    static let snippets = "Tests/GraftDocSnippetsTests/"

    /// Each document (a path from the repository's root) and the files that hold its code.
    static let documents: [(document: String, code: [String])] = [
        (
            articles + "SeedsTour.md",
            [snippets + "SeedsTourSnippets.swift", "Examples/ConcreteProtocols/Greeter.swift"]
        )
    ]

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
