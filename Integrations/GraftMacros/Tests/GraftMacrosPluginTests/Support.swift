import GraftMacrosPlugin
import SwiftSyntaxBuilder
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros as the compiler sees them: `@Injectable` adds a conformance to `Injectable`.
let macros: [String: MacroSpec] = [
    "Injectable": MacroSpec(type: InjectableMacro.self, conformances: ["Injectable"]),
    "Inject": MacroSpec(type: InjectMacro.self),
]

/// `assertMacroExpansion`, reporting each mismatch as a Swift Testing issue at the caller.
func expectExpansion(
    _ source: String,
    expands expanded: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = macros,
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source,
        expandedSource: expanded,
        diagnostics: diagnostics,
        macroSpecs: macros,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}
